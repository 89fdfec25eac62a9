import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { addUserToGroup, createGroup, deleteGroup } from '../groups/groups.js';
import { buildVocabulary } from '../issues/build-vocabulary.js';
import { listComments } from '../issues/comments/comments.js';
import { createIssue } from '../issues/create-issue.js';
import { executeCommand } from '../issues/execute-command.js';
import { addBundleValue, createBundle } from '../issues/fields/bundles.js';
import { createPrototype } from '../issues/fields/custom-fields.js';
import { attachProjectCustomField } from '../issues/fields/project-custom-fields.js';
import { getIssue } from '../issues/get-issue.js';
import { listIssueChanges } from '../issues/history/history.js';
import { listIssueLinks } from '../issues/issue-links.js';
import { assistSearchQuery } from '../issues/search/query-assist.js';
import { countIssues, searchIssueIds } from '../issues/search/search-issues.js';
import { listWorkItems } from '../issues/work-items/work-items.js';
import { countLinkTypeUsages } from '../link-types/link-types.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addRolePermission, createRole } from '../roles/roles.js';
import { grantRole } from '../users/users.js';
import type { Actor } from './actor.js';
import { canReadIssue, passesIssueVisibility, readableIssuesSql } from './issue-access.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

const actorOf = (over: Partial<Actor>): Actor => ({
  userId: 7,
  login: 'u',
  type: 'user',
  global: new Set(),
  byProject: new Map(),
  ...over,
});

describe('the readability rule (predicate and SQL agree on the rule)', () => {
  const restricted = { projectId: 1, reporterId: 3, permittedGroupId: 9 };
  const reader = actorOf({ byProject: new Map([[1, new Set(['READ_ISSUE' as const])]]) });

  it('an unrestricted issue is read with READ_ISSUE in its project; a restriction narrows it', () => {
    expect(canReadIssue(reader, { ...restricted, permittedGroupId: null })).toBe(true);
    expect(canReadIssue(reader, restricted)).toBe(false);
    expect(canReadIssue({ ...reader, groups: new Set([9]) }, restricted)).toBe(true);
    expect(canReadIssue({ ...reader, userId: 3 }, restricted)).toBe(true);
    const projectAdmin = actorOf({
      byProject: new Map([[1, new Set(['READ_ISSUE', 'READ_HIDDEN_STUFF'] as const)]]),
    });
    expect(canReadIssue(projectAdmin, restricted)).toBe(true);
    // The restriction never widens the project's permission: a member without READ_ISSUE reads nothing.
    const memberElsewhere = actorOf({ groups: new Set([9]), userId: 3 });
    expect(passesIssueVisibility(memberElsewhere, restricted)).toBe(true);
    expect(canReadIssue(memberElsewhere, restricted)).toBe(false);
    // Another permission is required on top of reading.
    expect(canReadIssue({ ...reader, groups: new Set([9]) }, restricted, 'UPDATE_ISSUE')).toBe(false);
  });

  it('the SQL form names the projects, the reporter, the groups and the hidden-stuff projects', () => {
    expect(readableIssuesSql(actorOf({}))).toBe('none');
    const sql = readableIssuesSql({ ...reader, groups: new Set([9, 10]) }, 'x');
    expect(sql).toEqual({
      sql: '(x.project_id in (?) and (x.permitted_group_id is null or x.reporter_id = ? or x.permitted_group_id in (?, ?)))',
      params: [1, 7, 9, 10],
    });
    const admin = actorOf({ global: new Set(['READ_ISSUE', 'READ_HIDDEN_STUFF'] as const) });
    expect(readableIssuesSql(admin)).toEqual({ sql: '1 = 1', params: [] });
    const updater = actorOf({
      byProject: new Map([
        [1, new Set(['READ_ISSUE'] as const)],
        [2, new Set(['READ_ISSUE', 'UPDATE_ISSUE'] as const)],
      ]),
    });
    expect(readableIssuesSql(updater, 'i', 'UPDATE_ISSUE')).toMatchObject({ params: [2, 7] });
  });
});

describe('issue visibility (permittedGroup) on every read path', () => {
  let orm: Orm;
  let root: Actor;
  let reporter: Actor;
  let insider: Actor;
  let outsider: Actor;
  let projectAdmin: Actor;
  let secretId: string;
  let publicId: string;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'VIS', name: 'Visibility' });
    reporter = await userWithRole(orm, 'v_rep', 'Reporter', 'VIS');
    await userWithRole(orm, 'v_in', 'Developer', 'VIS');
    outsider = await userWithRole(orm, 'v_out', 'Developer', 'VIS');
    projectAdmin = await userWithRole(orm, 'v_padmin', 'Project Admin', 'VIS');
    await createGroup(fork(orm), root, 'secret-team');
    await addUserToGroup(fork(orm), root, 'v_in', 'secret-team');
    insider = await actorFor(orm, 'v_in');
    // The reporter names a group it is not in: it needs READ_USERGROUP (issue 37, item 13).
    await createRole(fork(orm), root, 'Group reader');
    await addRolePermission(fork(orm), root, 'Group reader', 'READ_USERGROUP');
    await grantRole(fork(orm), root, 'v_rep', 'Group reader');
    reporter = await actorFor(orm, 'v_rep');
    publicId = (await createIssue(fork(orm), reporter, { project: 'VIS', summary: 'public' })).id;
    const secret = await createIssue(fork(orm), reporter, {
      project: 'VIS',
      summary: 'secret',
      permittedGroup: 'Secret-Team',
    });
    secretId = secret.id;
    expect(secret.permittedGroup).toBe('secret-team');
    await executeCommand(fork(orm), insider, [publicId], `relates to ${secretId}`, 'see the other one');
    await executeCommand(fork(orm), insider, [secretId], 'Priority Critical', 'inside only');
  });
  afterAll(() => orm.close(true));

  it('members, the reporter and READ_HIDDEN_STUFF holders read it; other readers of the project do not', async () => {
    for (const actor of [insider, reporter, projectAdmin, root])
      expect((await getIssue(fork(orm), actor, secretId)).summary).toBe('secret');
    expect(await codeOf(getIssue(fork(orm), outsider, secretId))).toBe('NOT_FOUND');
    for (const read of [listComments, listIssueChanges, listIssueLinks, listWorkItems])
      expect(await codeOf(read(fork(orm), outsider, secretId))).toBe('NOT_FOUND');
  });

  it('search, counts and pages leave it out inside the statement', async () => {
    expect(await searchIssueIds(fork(orm), outsider, 'project: VIS')).toEqual([publicId]);
    expect(await countIssues(fork(orm), outsider, 'project: VIS')).toBe(1);
    expect(await countIssues(fork(orm), insider, 'project: VIS')).toBe(2);
    expect(await searchIssueIds(fork(orm), insider, 'secret')).toEqual([secretId]);
    expect(await searchIssueIds(fork(orm), outsider, 'secret')).toEqual([]);
    // A page of one is full though the newest issue is unreadable.
    expect(await searchIssueIds(fork(orm), outsider, '', { max: 1 })).toEqual([publicId]);
    // The search attribute of the original: `visible to: <group>`.
    expect(await searchIssueIds(fork(orm), insider, 'visible to: secret-team')).toEqual([secretId]);
    expect(await searchIssueIds(fork(orm), insider, 'visible to: {Secret-Team}')).toEqual([secretId]);
    expect(await searchIssueIds(fork(orm), outsider, 'visible to: secret-team')).toEqual([]);
    expect(await searchIssueIds(fork(orm), insider, 'visible to: nobody-such')).toEqual([]);
  });

  it('links to it are left out of the other issue, its link list and the link type counts', async () => {
    expect((await getIssue(fork(orm), insider, publicId)).links.map((l) => l.issue.id)).toEqual([secretId]);
    expect((await getIssue(fork(orm), outsider, publicId)).links).toEqual([]);
    expect(await listIssueLinks(fork(orm), outsider, publicId)).toEqual([]);
    expect(await listIssueLinks(fork(orm), insider, publicId)).toHaveLength(1);
    expect(await countLinkTypeUsages(fork(orm), outsider, 'Relates')).toBe(0);
    expect(await countLinkTypeUsages(fork(orm), insider, 'Relates')).toBe(1);
  });

  it('commands cannot reach it, as context or as a link target, and suggestions do not offer it', async () => {
    expect(await codeOf(executeCommand(fork(orm), outsider, [secretId], 'Priority Minor'))).toBe('NOT_FOUND');
    expect(await codeOf(executeCommand(fork(orm), outsider, [publicId], `depends on ${secretId}`))).not.toBe(
      'ok',
    );
    expect((await buildVocabulary(fork(orm), outsider, [publicId])).issueIds).not.toContain(secretId);
    expect((await buildVocabulary(fork(orm), insider, [publicId])).issueIds).toContain(secretId);
    expect(
      (await getIssue(fork(orm), root, secretId)).fields.find((f) => f.name === 'Priority')?.values,
    ).toEqual([{ name: 'Critical' }]);
  });

  it('joining the group opens it at once; the group cannot be deleted while it restricts an issue', async () => {
    await addUserToGroup(fork(orm), root, 'v_out', 'secret-team');
    expect((await getIssue(fork(orm), await actorFor(orm, 'v_out'), secretId)).id).toBe(secretId);
    await expect(deleteGroup(fork(orm), root, 'secret-team')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('1 issue(s)'),
    });
  });

  it('an unknown group is refused on create and nothing is created', async () => {
    const before = await countIssues(fork(orm), root, 'project: VIS');
    expect(
      await codeOf(
        createIssue(fork(orm), reporter, { project: 'VIS', summary: 'x', permittedGroup: 'nope' }),
      ),
    ).toBe('NOT_FOUND');
    expect(await countIssues(fork(orm), root, 'project: VIS')).toBe(before);
  });
});

describe('private fields (isPrivate prototypes)', () => {
  let orm: Orm;
  let root: Actor;
  let observer: Actor;
  let developer: Actor;
  let readsPrivate: Actor;
  let issueId: string;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'PRV', name: 'Private' });
    observer = await userWithRole(orm, 'p_obs', 'Observer', 'PRV');
    developer = await userWithRole(orm, 'p_dev', 'Developer', 'PRV');
    await createRole(fork(orm), root, 'Private reader');
    for (const key of ['READ_ISSUE', 'UPDATE_ISSUE', 'PRIVATE_READ_ISSUE'])
      await addRolePermission(fork(orm), root, 'Private reader', key);
    await userWithRole(orm, 'p_reader', undefined, undefined);
    await grantRole(fork(orm), root, 'p_reader', 'Private reader', 'PRV');
    readsPrivate = await actorFor(orm, 'p_reader');
    await createBundle(fork(orm), root, 'bundle', { name: 'Budgets', values: [{ name: 'Lavish' }] });
    await addBundleValue(fork(orm), root, 'bundle', 'Budgets', { name: 'Tight' });
    await createPrototype(fork(orm), root, {
      name: 'Budget',
      type: 'enum[1]',
      defaultBundle: 'Budgets',
      isPrivate: true,
    });
    await attachProjectCustomField(fork(orm), root, 'PRV', 'Budget', {});
    issueId = (await createIssue(fork(orm), root, { project: 'PRV', summary: 'costly' })).id;
    await executeCommand(fork(orm), developer, [issueId], 'Budget Lavish');
  });
  afterAll(() => orm.close(true));

  const budget = async (actor: Actor) =>
    (await getIssue(fork(orm), actor, issueId)).fields.find((f) => f.name === 'Budget')?.values;

  it('is shown, in the issue and its history, only with PRIVATE_READ_ISSUE', async () => {
    expect(await budget(developer)).toEqual([{ name: 'Lavish' }]);
    expect(await budget(readsPrivate)).toEqual([{ name: 'Lavish' }]);
    expect(await budget(observer)).toBeUndefined();
    const changed = async (actor: Actor) =>
      (await listIssueChanges(fork(orm), actor, issueId)).flatMap((c) => c.fields.map((f) => f.name));
    expect(await changed(developer)).toContain('Budget');
    expect(await changed(observer)).not.toContain('Budget');
  });

  it('is unknown to search, counts and the search assist without PRIVATE_READ_ISSUE', async () => {
    expect(await searchIssueIds(fork(orm), developer, 'Budget: Lavish')).toEqual([issueId]);
    expect(await countIssues(fork(orm), developer, '#Lavish')).toBe(1);
    expect(await codeOf(searchIssueIds(fork(orm), observer, 'Budget: Lavish'))).toBe('VALIDATION_FAILED');
    expect(await codeOf(countIssues(fork(orm), observer, '#Lavish'))).toBe('VALIDATION_FAILED');
    const offered = async (actor: Actor, query: string) =>
      (await assistSearchQuery(fork(orm), actor, { query })).items.map((i) => i.option);
    expect(await offered(developer, 'Bud')).toContain('Budget');
    expect(await offered(observer, 'Bud')).not.toContain('Budget');
    expect(await offered(developer, '#Lav')).toContain('Lavish');
    expect(await offered(observer, '#Lav')).not.toContain('Lavish');
  });

  it('read in one project and not another: only the readable project’s values decide a match', async () => {
    await createProject(fork(orm), root, { shortName: 'PRW', name: 'Private elsewhere' });
    await attachProjectCustomField(fork(orm), root, 'PRW', 'Budget', {});
    await grantRole(fork(orm), root, 'p_obs', 'Developer', 'PRW');
    const other = (await createIssue(fork(orm), root, { project: 'PRW', summary: 'costly elsewhere' })).id;
    await executeCommand(fork(orm), root, [other], 'Budget Lavish');
    const mixed = await actorFor(orm, 'p_obs');
    expect(await searchIssueIds(fork(orm), mixed, 'Budget: Lavish')).toEqual([other]);
    expect(await searchIssueIds(fork(orm), mixed, '#Lavish')).toEqual([other]);
    expect(await searchIssueIds(fork(orm), mixed, 'has: Budget')).toEqual([other]);
    expect(await searchIssueIds(fork(orm), developer, 'Budget: Lavish')).toEqual([issueId]);
  });

  it('is set only with PRIVATE_UPDATE_ISSUE; without PRIVATE_READ_ISSUE it is no word of the language', async () => {
    expect(await codeOf(executeCommand(fork(orm), readsPrivate, [issueId], 'Budget Tight'))).toBe(
      'PERMISSION_DENIED',
    );
    const observerError = await executeCommand(fork(orm), observer, [issueId], 'Budget Tight').catch(
      (e) => e,
    );
    const unknownError = await executeCommand(fork(orm), observer, [issueId], 'Bydget Tight').catch((e) => e);
    expect(observerError.code).toBe('VALIDATION_FAILED');
    // The same answer as for a field that does not exist: the refusal tells nothing of the private field.
    expect(observerError.message.replace(/Budget/g, 'Bydget')).toBe(unknownError.message);
    expect(await codeOf(executeCommand(fork(orm), readsPrivate, [issueId], 'Priority Major'))).toBe('ok');
    expect(await budget(developer)).toEqual([{ name: 'Lavish' }]);
    expect(
      (await buildVocabulary(fork(orm), readsPrivate, [issueId])).fields.map((f) => f.name),
    ).not.toContain('Budget');
    expect(await codeOf(executeCommand(fork(orm), developer, [issueId], 'Budget Tight'))).toBe('ok');
    expect(await budget(developer)).toEqual([{ name: 'Tight' }]);
  });
});
