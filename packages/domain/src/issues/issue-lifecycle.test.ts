import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import type { Orm } from '../orm/open-orm.js';
import { listProjectSummaries } from '../projects/project-summaries.js';
import { createProject } from '../projects/projects.js';
import { createIssue } from './create-issue.js';
import { getIssue } from './get-issue.js';
import { assertIssueExists, deleteIssue, listProjectIssues, updateIssueText } from './issue-lifecycle.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('legacy issue use cases: exists, by project, update, delete', () => {
  let orm: Orm;
  let root: Actor;
  let reporter: Actor;
  let stranger: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'LC', name: 'Lifecycle' });
    await createProject(fork(orm), root, { shortName: 'HID', name: 'Hidden' });
    await userWithRole(orm, 'lc_rep', 'Reporter', 'LC');
    await userWithRole(orm, 'lc_none');
    reporter = await actorFor(orm, 'lc_rep');
    stranger = await actorFor(orm, 'lc_none');
  });
  afterAll(() => orm.close(true));

  it('an unreadable issue is NOT_FOUND like a missing one; readable without permission is PERMISSION_DENIED', async () => {
    const issue = await createIssue(fork(orm), root, { project: 'LC', summary: 'guarded' });
    expect(await codeOf(assertIssueExists(fork(orm), reporter, issue.id))).toBe('ok');
    expect(await codeOf(assertIssueExists(fork(orm), stranger, issue.id))).toBe('NOT_FOUND');
    expect(await codeOf(assertIssueExists(fork(orm), root, 'LC-999'))).toBe('NOT_FOUND');
    expect(await codeOf(updateIssueText(fork(orm), reporter, issue.id, { summary: 'x' }))).toBe(
      'PERMISSION_DENIED',
    );
    expect(await codeOf(updateIssueText(fork(orm), stranger, issue.id, { summary: 'x' }))).toBe('NOT_FOUND');
    expect(await codeOf(deleteIssue(fork(orm), reporter, issue.id))).toBe('PERMISSION_DENIED');
    expect(await codeOf(deleteIssue(fork(orm), stranger, issue.id))).toBe('NOT_FOUND');
    expect((await getIssue(fork(orm), root, issue.id)).summary).toBe('guarded');
  });

  it('updates summary and description; an empty summary is refused', async () => {
    const issue = await createIssue(fork(orm), root, { project: 'LC', summary: 'old', description: 'd' });
    await updateIssueText(fork(orm), root, issue.id, { summary: '  new  ' });
    const view = await getIssue(fork(orm), root, issue.id);
    expect([view.summary, view.description]).toEqual(['new', 'd']);
    expect(await codeOf(updateIssueText(fork(orm), root, issue.id, { summary: ' ' }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('deletes an issue; then it is NOT_FOUND', async () => {
    const issue = await createIssue(fork(orm), root, { project: 'LC', summary: 'doomed' });
    await deleteIssue(fork(orm), root, issue.id);
    expect(await codeOf(getIssue(fork(orm), root, issue.id))).toBe('NOT_FOUND');
    expect(await codeOf(deleteIssue(fork(orm), root, issue.id))).toBe('NOT_FOUND');
  });

  it('lists one project’s issues; an unreadable project is NOT_FOUND', async () => {
    await createIssue(fork(orm), root, { project: 'HID', summary: 'elsewhere' });
    const listed = await listProjectIssues(fork(orm), root, 'lc', '', { max: 100 });
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((i) => i.project.shortName === 'LC')).toBe(true);
    expect(await codeOf(listProjectIssues(fork(orm), reporter, 'HID', ''))).toBe('NOT_FOUND');
    const later = await listProjectIssues(fork(orm), root, 'LC', '', { updatedAfter: Date.now() + 60_000 });
    expect(later).toEqual([]);
  });

  it('project summaries: readable projects only, details when verbose', async () => {
    const plain = await listProjectSummaries(fork(orm), reporter, false);
    expect(plain).toEqual([{ name: 'Lifecycle', shortName: 'LC', description: '' }]);
    const [verbose] = await listProjectSummaries(fork(orm), reporter, true);
    expect(verbose?.details?.assignees.map((a) => a.login)).toContain('root');
    expect(verbose?.details?.subsystems).toEqual([]);
    expect(await listProjectSummaries(fork(orm), stranger, true)).toEqual([]);
  });
});
