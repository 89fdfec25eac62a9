import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { addUserToGroup, createGroup, deleteGroup } from '../../groups/groups.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { addRolePermission, createRole } from '../../roles/roles.js';
import { grantRole } from '../../users/users.js';
import { createIssue } from '../create-issue.js';
import { executeCommand, executeIssueCommand } from '../execute-command.js';
import { getIssue } from '../get-issue.js';
import { deleteComment, listComments, updateComment } from './comments.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('comments: list, edit, delete, visibility by group', () => {
  let orm: Orm;
  let root: Actor;
  let reporter: Actor;
  let developer: Actor;
  let padmin: Actor;
  let insider: Actor;
  let issueId: string;
  const texts = async (actor: Actor) => (await listComments(fork(orm), actor, issueId)).map((c) => c.text);
  const viewTexts = async (actor: Actor) =>
    (await getIssue(fork(orm), actor, issueId)).comments.map((c) => c.text);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'CM', name: 'Comments' });
    reporter = await userWithRole(orm, 'c_rep', 'Reporter', 'CM');
    developer = await userWithRole(orm, 'c_dev', 'Developer', 'CM');
    padmin = await userWithRole(orm, 'c_padmin', 'Project Admin', 'CM');
    await userWithRole(orm, 'c_insider', 'Developer', 'CM');
    await createGroup(fork(orm), root, 'insiders');
    await addUserToGroup(fork(orm), root, 'c_insider', 'insiders');
    insider = await actorFor(orm, 'c_insider');
    // The developer restricts a comment to a group it is not in: it needs READ_USERGROUP (issue 37, item 13).
    await createRole(fork(orm), root, 'Group reader');
    await addRolePermission(fork(orm), root, 'Group reader', 'READ_USERGROUP');
    await grantRole(fork(orm), root, 'c_dev', 'Group reader');
    developer = await actorFor(orm, 'c_dev');
    issueId = (await createIssue(fork(orm), reporter, { project: 'CM', summary: 'commented' })).id;
    await executeCommand(fork(orm), reporter, [issueId], undefined, 'public by reporter');
    await executeIssueCommand(fork(orm), developer, {
      issue: issueId,
      comment: 'for insiders',
      group: 'INSIDERS',
    });
  });
  afterAll(() => orm.close(true));

  it('a comment restricted to a group is seen by its members and its author only, in the list and the issue', async () => {
    expect(await texts(insider)).toEqual(['public by reporter', 'for insiders']);
    expect(await texts(developer)).toEqual(['public by reporter', 'for insiders']);
    expect(await texts(reporter)).toEqual(['public by reporter']);
    expect(await viewTexts(reporter)).toEqual(['public by reporter']);
    expect(await viewTexts(insider)).toEqual(['public by reporter', 'for insiders']);
    const [, restricted] = await listComments(fork(orm), insider, issueId);
    expect(restricted?.permittedGroup).toBe('insiders');
    expect(restricted?.updated).toBeNull();
    expect(
      await codeOf(
        executeIssueCommand(fork(orm), developer, { issue: issueId, comment: 'x', group: 'nope' }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('own comments need UPDATE_COMMENT, others’ UPDATE_NOT_OWN_COMMENT; the edit time is kept', async () => {
    const [mine] = await listComments(fork(orm), reporter, issueId);
    const id = String(mine?.id);
    expect(await codeOf(updateComment(fork(orm), developer, issueId, id, 'hijacked'))).toBe(
      'PERMISSION_DENIED',
    );
    const later = new Date(Date.now() + 60_000);
    const edited = await updateComment(fork(orm), reporter, issueId, id, 'public, edited', later);
    expect(edited.updated).toBe(later.getTime());
    expect(await codeOf(updateComment(fork(orm), padmin, issueId, id, 'moderated'))).toBe('ok');
    expect(await codeOf(updateComment(fork(orm), reporter, issueId, id, '   '))).toBe('VALIDATION_FAILED');
    expect(await codeOf(updateComment(fork(orm), reporter, issueId, '999999', 'x'))).toBe('NOT_FOUND');
    expect(await codeOf(updateComment(fork(orm), reporter, issueId, 'abc', 'x'))).toBe('NOT_FOUND');
    // The insiders' comment is hidden from the reporter: not found, not forbidden.
    const [, restricted] = await listComments(fork(orm), insider, issueId);
    expect(await codeOf(updateComment(fork(orm), reporter, issueId, String(restricted?.id), 'x'))).toBe(
      'NOT_FOUND',
    );
  });

  it('delete marks deleted (listed as deleted to author and moderators), permanently removes', async () => {
    await executeCommand(fork(orm), reporter, [issueId], undefined, 'to be deleted');
    const target = (await listComments(fork(orm), reporter, issueId)).find((c) => c.text === 'to be deleted');
    const id = String(target?.id);
    expect(await codeOf(deleteComment(fork(orm), developer, issueId, id))).toBe('PERMISSION_DENIED');
    await deleteComment(fork(orm), reporter, issueId, id);
    expect((await listComments(fork(orm), reporter, issueId)).find((c) => c.id === target?.id)?.deleted).toBe(
      true,
    );
    expect((await listComments(fork(orm), padmin, issueId)).some((c) => c.id === target?.id)).toBe(true);
    expect((await listComments(fork(orm), developer, issueId)).some((c) => c.id === target?.id)).toBe(false);
    expect(await viewTexts(reporter)).not.toContain('to be deleted');
    // Deleting it again (softly) is NOT_FOUND; permanently still works on a deleted one.
    expect(await codeOf(deleteComment(fork(orm), reporter, issueId, id))).toBe('NOT_FOUND');
    await deleteComment(fork(orm), reporter, issueId, id, true);
    expect((await listComments(fork(orm), reporter, issueId)).some((c) => c.id === target?.id)).toBe(false);
  });

  it('reading comments needs READ_COMMENT; a hidden issue is NOT_FOUND', async () => {
    const stranger = await userWithRole(orm, 'c_stranger');
    expect(await codeOf(listComments(fork(orm), stranger, issueId))).toBe('NOT_FOUND');
    const noComments = {
      ...developer,
      byProject: new Map([...developer.byProject].map(([p]) => [p, new Set(['READ_ISSUE' as const])])),
    };
    expect(await codeOf(listComments(fork(orm), noComments, issueId))).toBe('PERMISSION_DENIED');
  });

  it('a group that restricts comments cannot be deleted (they would become public)', async () => {
    expect(await codeOf(deleteGroup(fork(orm), root, 'insiders'))).toBe('CONFLICT');
  });
});
