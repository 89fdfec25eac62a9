import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { createGroup, grantGroupRole, listUserGroups } from '../groups/groups.js';
import { applyCommand } from '../issues/apply-command.js';
import { deleteComment, updateComment } from '../issues/comments/comments.js';
import { createIssue } from '../issues/create-issue.js';
import { getIssue } from '../issues/get-issue.js';
import { searchIssues } from '../issues/search/search-issues.js';
import { Group, GroupRoleGrant } from '../model/group.entity.js';
import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { readRows, runStatement } from '../orm/statements.js';
import { createProject } from '../projects/projects.js';
import { addRolePermission, createRole } from '../roles/roles.js';
import { listSystemUsers } from '../users/users.js';
import { type ImportedIssue, importIssues } from './import-issues.js';
import { importLinks } from './import-links.js';
import { importUsers } from './import-users.js';

const issue = (
  fields: Record<string, string | string[]>,
  comments: ImportedIssue['comments'] = [],
): ImportedIssue => ({
  fields: Object.entries(fields).map(([name, v]) => ({ name, values: Array.isArray(v) ? v : [v] })),
  comments,
});

const T0 = Date.UTC(2012, 0, 2, 3, 4, 5);

describe('import', () => {
  let orm: Orm;
  let root: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'IMP', name: 'Imported' });
  });
  afterAll(() => orm.close(true));

  it('needs IMPORT_DATA (a project Admin is not enough)', async () => {
    const admin = await userWithRole(orm, 'imp_admin', 'Admin', 'IMP');
    await expect(importUsers(fork(orm), admin, [{ login: 'x' }])).rejects.toThrow(/IMPORT_DATA/);
    await expect(importIssues(fork(orm), admin, { project: 'IMP', issues: [] })).rejects.toThrow(
      /IMPORT_DATA/,
    );
    await expect(importLinks(fork(orm), admin, [])).rejects.toThrow(/IMPORT_DATA/);
  });

  it('creates missing users without passwords and updates existing ones, per user', async () => {
    const first = await importUsers(fork(orm), root, [
      { login: 'alice', fullName: 'Alice A', email: 'alice@example.com' },
      { login: 'bad login', fullName: 'x' },
      { login: 'root', fullName: 'Not root' },
    ]);
    expect(first.map((r) => [r.id, r.imported])).toEqual([
      ['alice', true],
      ['bad login', false],
      ['root', false],
    ]);
    const again = await importUsers(fork(orm), root, [
      { login: 'ALICE', fullName: 'Alice B', email: 'a@example.com' },
    ]);
    expect(again[0]?.imported).toBe(true);
    const rows = await fork(orm).execute(
      'select login, full_name, email, password_hash, type from users where login_key = ?',
      ['alice'],
    );
    expect(rows).toEqual([
      { login: 'alice', full_name: 'Alice B', email: 'a@example.com', password_hash: null, type: 'user' },
    ]);
  });

  it('keeps numbers, times, reporter, comments and fields; unknown users become system users', async () => {
    const results = await importIssues(fork(orm), root, {
      project: 'IMP',
      issues: [
        issue(
          {
            numberInProject: '5',
            summary: 'Imported five',
            description: 'line 1\nline 2',
            created: String(T0),
            updated: String(T0 + 1000),
            reporterName: 'alice',
            State: 'Fixed',
            Priority: 'Critical',
            Assignee: 'ghost_dev',
            'Fix versions': [],
            voterName: ['alice', 'ghost_voter'],
          },
          [{ author: 'ghost_commenter', text: 'first\ncomment', created: String(T0 + 10) }],
        ),
        issue({ numberInProject: '9', summary: 'Nine', created: String(T0), reporterName: 'alice' }),
      ],
    });
    expect(results).toEqual([
      { id: '5', imported: true },
      { id: '9', imported: true },
    ]);
    const five = await getIssue(fork(orm), root, 'IMP-5');
    expect(five.summary).toBe('Imported five');
    expect(five.description).toBe('line 1\nline 2');
    expect([five.created, five.updated, five.resolved]).toEqual([T0, T0 + 1000, T0 + 1000]);
    expect(five.reporter.login).toBe('alice');
    expect(five.votes).toBe(2);
    const field = (name: string) => five.fields.find((f) => f.name === name)?.values.map((v) => v.name);
    expect([field('State'), field('Priority'), field('Assignee'), field('Type')]).toEqual([
      ['Fixed'],
      ['Critical'],
      ['ghost_dev'],
      ['Bug'],
    ]);
    expect(five.comments.map((c) => [c.author.login, c.text, c.created])).toEqual([
      ['ghost_commenter', 'first\ncomment', T0 + 10],
    ]);
    const system = (await listSystemUsers(fork(orm), root)).map((u) => `${u.login}:${u.type}`);
    expect(system).toEqual(
      expect.arrayContaining(['ghost_dev:system', 'ghost_voter:system', 'ghost_commenter:system']),
    );
    // The next created issue comes after the highest imported number.
    expect((await createIssue(fork(orm), root, { project: 'IMP', summary: 'after' })).id).toBe('IMP-10');
  });

  it('a second identical run changes nothing; a changed one updates the issue', async () => {
    const batch = [
      issue(
        {
          numberInProject: '20',
          summary: 'Twenty',
          created: String(T0),
          reporterName: 'alice',
          watcherName: 'alice',
        },
        [{ author: 'alice', text: 'hello', created: String(T0 + 5) }],
      ),
    ];
    await importIssues(fork(orm), root, { project: 'IMP', issues: batch });
    const before = await getIssue(fork(orm), root, 'IMP-20');
    await importIssues(fork(orm), root, { project: 'IMP', issues: batch });
    expect(await getIssue(fork(orm), root, 'IMP-20')).toEqual(before);
    // The watcher's star is also their own Star tag on the issue, once, as the `star` command leaves it.
    const starTags = await readRows<{ n: number }>(
      fork(orm),
      'select count(*) as n from issue_tags it join tags t on t.id = it.tag_id join users u on u.id = t.owner_id ' +
        "join issues i on i.id = it.issue_id join projects p on p.id = i.project_id where u.login_key = 'alice' " +
        "and t.name = 'Star' and p.short_name = 'IMP' and i.number_in_project = 20",
    );
    expect(Number(starTags[0]?.n)).toBe(1);
    await importIssues(fork(orm), root, {
      project: 'IMP',
      issues: [
        issue(
          { numberInProject: '20', summary: 'Twenty again', created: String(T0), reporterName: 'alice' },
          [{ author: 'alice', text: 'hello, edited', created: String(T0 + 5), updated: String(T0 + 6) }],
        ),
      ],
    });
    const after = await getIssue(fork(orm), root, 'IMP-20');
    expect(after.summary).toBe('Twenty again');
    expect(after.comments.map((c) => [c.id, c.text, c.updated])).toEqual([
      [before.comments[0]?.id, 'hello, edited', T0 + 6],
    ]);
  });

  it('never overwrites an issue people created: its number is refused, the issue unchanged, the rest imported', async () => {
    await createProject(fork(orm), root, { shortName: 'OWN', name: 'Owned' });
    await createIssue(fork(orm), root, { project: 'OWN', summary: 'made by a person' });
    const imp = (n: string, summary: string) =>
      issue({ numberInProject: n, summary, created: String(T0), reporterName: 'root' });
    const results = await importIssues(fork(orm), root, {
      project: 'OWN',
      issues: [imp('1', 'imported over it'), imp('2', 'imported two')],
    });
    expect(results.map((r) => [r.id, r.imported])).toEqual([
      ['1', false],
      ['2', true],
    ]);
    expect(results[0]?.errors?.[0]?.message).toMatch(/numberInProject 1 is an issue created in Trackline/);
    expect((await getIssue(fork(orm), root, 'OWN-1')).summary).toBe('made by a person');
    expect((await getIssue(fork(orm), root, 'OWN-2')).summary).toBe('imported two');
    // An imported issue is still updated by importing its number again (idempotent migrations).
    await importIssues(fork(orm), root, { project: 'OWN', issues: [imp('2', 'imported two, again')] });
    expect((await getIssue(fork(orm), root, 'OWN-2')).summary).toBe('imported two, again');
  });

  it('under concurrent creation and import, no issue people were answered for is overwritten', async () => {
    await createProject(fork(orm), root, { shortName: 'RACE', name: 'Race' });
    const created: string[] = [];
    const create = async (i: number) =>
      created.push((await createIssue(fork(orm), root, { project: 'RACE', summary: `person ${i}` })).id);
    const batch = (from: number) =>
      importIssues(fork(orm), root, {
        project: 'RACE',
        issues: Array.from({ length: 10 }, (_, k) =>
          issue({
            numberInProject: String(from + k),
            summary: `imported ${from + k}`,
            created: String(T0),
            reporterName: 'root',
          }),
        ),
      });
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => create(i)),
      batch(1),
      batch(6),
      batch(11),
      batch(16),
    ]);
    expect(created).toHaveLength(20);
    for (const [i, id] of created.entries()) {
      const summary = (await getIssue(fork(orm), root, id)).summary;
      expect(summary, id).toMatch(/^person \d+$/);
      expect(summary).not.toBe(`imported ${i}`);
    }
  });

  it('refuses logins that could pass for others (control, zero-width, look-alike), creating no user', async () => {
    const tricks = ['ro\u0001ot', 'root\u200b', 'r\u043e\u043et', '\uff52\uff4f\uff4f\uff54'];
    const users = await importUsers(
      fork(orm),
      root,
      tricks.map((login) => ({ login })),
    );
    expect(users.map((r) => r.imported)).toEqual([false, false, false, false]);
    expect(users[2]?.errors?.[0]).toMatchObject({
      fieldName: 'login',
      message: expect.stringMatching(/look-alike/),
    });
    const issues = await importIssues(fork(orm), root, {
      project: 'IMP',
      issues: tricks.map((login, i) =>
        issue({
          numberInProject: String(700 + i),
          summary: 'tricky',
          created: String(T0),
          reporterName: login,
        }),
      ),
    });
    expect(issues.map((r) => [r.imported, r.errors?.[0]?.fieldName])).toEqual(
      tricks.map(() => [false, 'reporterName']),
    );
    const keys = tricks.map((l) => l.toLowerCase());
    const rows = await fork(orm).execute(
      `select login from users where login_key in (${keys.map(() => '?').join(', ')})`,
      keys,
    );
    expect(rows).toEqual([]);
  });

  it('leaves the text of imported comments searchable, and later comments and edits too', async () => {
    await createProject(fork(orm), root, { shortName: 'TXT', name: 'Text' });
    const found = async (query: string) =>
      (await searchIssues(fork(orm), root, `project: TXT ${query}`, { max: 10 })).map((i) => i.id);
    const many = Array.from({ length: 30 }, (_, k) =>
      issue(
        {
          numberInProject: String(k + 1),
          summary: `Batch ${k + 1}`,
          created: String(T0),
          reporterName: 'alice',
        },
        [
          { author: 'alice', text: `zebra${k} first remark`, created: String(T0 + 1) },
          { author: 'bob', text: `quokka${k} second remark`, created: String(T0 + 2) },
        ],
      ),
    );
    await importIssues(fork(orm), root, { project: 'TXT', issues: many });
    expect(await found('zebra7')).toEqual(['TXT-8']);
    expect(await found('quokka29')).toEqual(['TXT-30']);
    expect(await found('comments: quokka3')).toEqual(['TXT-4']);
    expect(await found('summary: quokka3')).toEqual([]);
    expect(await found('{second remark} summary: {batch 12}')).toEqual(['TXT-12']);
    // A re-import adding a comment to an existing issue, then a comment added as usual.
    await importIssues(fork(orm), root, {
      project: 'TXT',
      issues: [
        issue({ numberInProject: '2', summary: 'Batch 2', created: String(T0), reporterName: 'alice' }, [
          { author: 'alice', text: 'wombat arrives later', created: String(T0 + 3) },
        ]),
      ],
    });
    expect(await found('wombat')).toEqual(['TXT-2']);
    expect(await found('zebra1 quokka1')).toEqual(['TXT-2']);
    await applyCommand(fork(orm), root, ['TXT-5'], [op.comment()], 'platypus sighting');
    expect(await found('platypus')).toEqual(['TXT-5']);
    expect(await found('platypus zebra4')).toEqual(['TXT-5']);
    // Edits and deletions take words out again.
    const comments = (await getIssue(fork(orm), root, 'TXT-5')).comments;
    const added = comments.find((c) => c.text === 'platypus sighting');
    const first = comments.find((c) => c.text.startsWith('zebra4'));
    await updateComment(fork(orm), root, 'TXT-5', String(added?.id), 'echidna sighting');
    expect(await found('platypus')).toEqual([]);
    expect(await found('echidna')).toEqual(['TXT-5']);
    await deleteComment(fork(orm), root, 'TXT-5', String(first?.id));
    expect(await found('zebra4')).toEqual([]);
    expect(await found('quokka4 echidna')).toEqual(['TXT-5']);
  });

  it('stores field values with their search keys, and the keys are right whoever writes them', async () => {
    await createProject(fork(orm), root, { shortName: 'KEY', name: 'Keys' });
    await importIssues(fork(orm), root, {
      project: 'KEY',
      issues: [
        issue({
          numberInProject: '1',
          summary: 'Keys',
          created: String(T0),
          reporterName: 'alice',
          State: 'Open',
          Priority: 'Critical',
          Assignee: 'alice',
        }),
      ],
    });
    const truth =
      'select ifv.id, ifv.field_key, ifv.value_key, pf.custom_field_id as want_field, fv.name_key as want_value ' +
      'from issue_field_values ifv join project_fields pf on pf.id = ifv.field_id ' +
      'left join field_values fv on fv.id = ifv.value_id join issues i on i.id = ifv.issue_id ' +
      "join projects p on p.id = i.project_id where p.short_name = 'KEY'";
    type KeyRow = {
      id: number;
      field_key: number;
      value_key: string | null;
      want_field: number;
      want_value: string | null;
    };
    const rows = await readRows<KeyRow>(fork(orm) as Em, truth);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.map((r) => [Number(r.field_key), r.value_key])).toEqual(
      rows.map((r) => [Number(r.want_field), r.want_value]),
    );
    expect(rows.filter((r) => r.value_key !== null).map((r) => r.value_key)).toEqual(
      expect.arrayContaining(['open', 'critical']),
    );
    // A writer that leaves the keys out, or gives wrong ones, is corrected by the triggers.
    const state = rows.find((r) => r.value_key === 'open') as KeyRow;
    const [stateRow] = await readRows<{ issue_id: number; field_id: number; value_id: number }>(
      fork(orm) as Em,
      'select issue_id, field_id, value_id from issue_field_values where id = ?',
      [state.id],
    );
    for (const keys of [
      [null, null],
      [Number(state.want_field) + 1000, 'wrong'],
    ]) {
      await runStatement(fork(orm) as Em, 'delete from issue_field_values where id = ?', [state.id]);
      await runStatement(
        fork(orm) as Em,
        'insert into issue_field_values (id, issue_id, field_id, slot, value_id, field_key, value_key) values (?, ?, ?, 0, ?, ?, ?)',
        [state.id, stateRow?.issue_id, stateRow?.field_id, stateRow?.value_id, ...keys],
      );
      const [fixed] = await readRows<KeyRow>(fork(orm) as Em, `${truth} and ifv.id = ?`, [state.id]);
      expect([Number(fixed?.field_key), fixed?.value_key]).toEqual([Number(state.want_field), 'open']);
    }
    expect(
      await searchIssues(fork(orm), root, 'project: KEY State: Open Priority: Critical for: alice'),
    ).toHaveLength(1);
  });

  it('reports each bad issue and stores the valid ones', async () => {
    const results = await importIssues(fork(orm), root, {
      project: 'IMP',
      issues: [
        issue({ numberInProject: '30', summary: 'ok', created: String(T0), reporterName: 'alice' }),
        issue({
          numberInProject: '31',
          summary: 'x',
          created: String(T0),
          reporterName: 'alice',
          Severity: 'Major',
        }),
        issue({
          numberInProject: '32',
          summary: 'x',
          created: String(T0),
          reporterName: 'alice',
          Priority: 'Urgent',
        }),
        issue({ numberInProject: '30', summary: 'dup', created: String(T0), reporterName: 'alice' }),
        issue({ numberInProject: 'x', summary: '', created: 'yesterday', reporterName: 'alice' }),
        issue({
          numberInProject: '33',
          summary: 'private',
          created: String(T0),
          reporterName: 'alice',
          permittedGroup: 'devs',
        }),
      ],
    });
    expect(results.map((r) => [r.id, r.imported, r.errors?.map((e) => e.fieldName)])).toEqual([
      ['30', true, undefined],
      ['31', false, ['Severity']],
      ['32', false, ['Priority']],
      ['30', false, ['numberInProject']],
      ['x', false, ['numberInProject', 'summary', 'created']],
      ['33', false, ['permittedGroup']],
    ]);
    expect((await getIssue(fork(orm), root, 'IMP-30')).summary).toBe('ok');
    await expect(getIssue(fork(orm), root, 'IMP-31')).rejects.toThrow(/not found/);
  });

  it('keeps permittedGroup: the issue is visible to that group (and the reporter) only', async () => {
    await createGroup(fork(orm), root, 'Secret Team');
    const results = await importIssues(fork(orm), root, {
      project: 'IMP',
      issues: [
        issue({
          numberInProject: '50',
          summary: 'hidden',
          created: String(T0),
          reporterName: 'alice',
          permittedGroup: 'secret team',
        }),
        issue({
          numberInProject: '51',
          summary: 'open',
          created: String(T0),
          reporterName: 'alice',
          permittedGroup: 'All Users',
        }),
      ],
    });
    expect(results.map((r) => r.imported)).toEqual([true, true]);
    expect((await getIssue(fork(orm), root, 'IMP-50')).permittedGroup).toBe('Secret Team');
    expect((await getIssue(fork(orm), root, 'IMP-51')).permittedGroup).toBeNull();
    const outsider = await userWithRole(orm, 'imp_reader', 'Developer', 'IMP');
    await expect(getIssue(fork(orm), outsider, 'IMP-50')).rejects.toThrow(/not found/);
    expect((await getIssue(fork(orm), outsider, 'IMP-51')).summary).toBe('open');
  });

  it('adds the users of user fields to assigneeGroup', async () => {
    await createGroup(fork(orm), root, 'imported-devs');
    await importIssues(fork(orm), root, {
      project: 'IMP',
      assigneeGroup: 'Imported-Devs',
      issues: [
        issue({
          numberInProject: '40',
          summary: 'g',
          created: String(T0),
          reporterName: 'alice',
          Assignee: 'group_dev',
        }),
      ],
    });
    expect((await listUserGroups(fork(orm), root, 'group_dev')).map((g) => g.name)).toEqual([
      'imported-devs',
    ]);
  });

  it('creates a missing assigneeGroup without roles (every importer passes "<project> Assignees")', async () => {
    const dry = await importIssues(fork(orm), root, {
      project: 'IMP',
      assigneeGroup: 'Imported Assignees',
      test: true,
      issues: [issue({ numberInProject: '41', summary: 'g', created: String(T0), reporterName: 'alice' })],
    });
    expect(dry.map((r) => r.imported)).toEqual([true]);
    expect(await fork(orm).findOne(Group, { nameKey: 'imported assignees' })).toBeNull();
    const assignedToNewUser = issue({
      numberInProject: '41',
      summary: 'g',
      created: String(T0),
      reporterName: 'alice',
      Assignee: 'group_new',
    });
    const results = await importIssues(fork(orm), root, {
      project: 'IMP',
      assigneeGroup: 'Imported Assignees',
      issues: [assignedToNewUser],
    });
    expect(results.map((r) => r.imported)).toEqual([true]);
    const group = await fork(orm).findOneOrFail(Group, { nameKey: 'imported assignees' });
    expect([group.name, group.autoJoin]).toEqual(['Imported Assignees', false]);
    expect(await fork(orm).count(GroupRoleGrant, { group: group.id })).toBe(0);
    expect((await listUserGroups(fork(orm), root, 'group_new')).map((g) => g.name)).toEqual([
      'Imported Assignees',
    ]);
    // A second run finds it: still one group, nothing else changes.
    await importIssues(fork(orm), root, {
      project: 'IMP',
      assigneeGroup: 'imported assignees',
      issues: [assignedToNewUser],
    });
    expect(await fork(orm).count(Group, { nameKey: 'imported assignees' })).toBe(1);
  });

  it('refuses an existing assigneeGroup whose roles the importer does not hold, storing nothing', async () => {
    // An importer holding IMPORT_DATA (and reading the project) but not the Admin role's permissions.
    await createRole(fork(orm), root, 'Importer');
    for (const key of ['IMPORT_DATA', 'READ_PROJECT'])
      await addRolePermission(fork(orm), root, 'Importer', key);
    const importer = await userWithRole(orm, 'imp_only', 'Importer');
    await createGroup(fork(orm), root, 'Powerful');
    await grantGroupRole(fork(orm), root, 'Powerful', 'Admin', ['IMP']);
    const assignedToDeveloper = issue({
      numberInProject: '42',
      summary: 'g',
      created: String(T0),
      reporterName: 'alice',
      Assignee: 'group_dev',
    });
    await expect(
      importIssues(fork(orm), importer, {
        project: 'IMP',
        assigneeGroup: 'Powerful',
        issues: [assignedToDeveloper],
      }),
    ).rejects.toThrow(/add imported assignees to group \[ Powerful \] \(UPDATE_USERGROUP\)/);
    await expect(getIssue(fork(orm), root, 'IMP-42')).rejects.toThrow(/not found/);
    // The same importer may create (and fill) a group that carries no roles.
    const ok = await importIssues(fork(orm), importer, {
      project: 'IMP',
      assigneeGroup: 'Plain',
      issues: [assignedToDeveloper],
    });
    expect(ok.map((r) => r.imported)).toEqual([true]);
    expect((await listUserGroups(fork(orm), root, 'group_dev')).map((g) => g.name)).toContain('Plain');
  });

  it('imports links per link, reporting unknown types and issues', async () => {
    const results = await importLinks(fork(orm), root, [
      { typeName: 'Depend', source: 'IMP-5', target: 'IMP-9' },
      { typeName: 'Relates', source: 'IMP-9', target: 'IMP-5' },
      { typeName: 'Nope', source: 'IMP-5', target: 'IMP-9' },
      { typeName: 'Relates', source: 'IMP-5', target: 'IMP-999' },
    ]);
    expect(results.map((r) => [r.imported, r.errors?.[0]?.fieldName])).toEqual([
      [true, undefined],
      [true, undefined],
      [false, 'typeName'],
      [false, 'target'],
    ]);
    expect(
      await importLinks(fork(orm), root, [{ typeName: 'Depend', source: 'IMP-5', target: 'IMP-9' }]),
    ).toEqual([{ id: 'IMP-5->IMP-9', imported: true }]);
    const links = (await getIssue(fork(orm), root, 'IMP-5')).links.map((l) => `${l.role}:${l.issue.id}`);
    expect(links).toHaveLength(2);
  });
});
