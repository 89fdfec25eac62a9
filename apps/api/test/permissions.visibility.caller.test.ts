import {
  type Actor,
  addBundleValue,
  addRolePermission,
  addUserToGroup,
  attachProjectCustomField,
  createBundle,
  createGroup,
  createIssue,
  createProject,
  createPrototype,
  createRole,
  executeCommand,
  grantRole,
  type Orm,
} from '@trackline/domain';
import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProcedure } from './caller.js';

/**
 * The permission matrix of issue visibility (`permittedGroup`) and private fields, through
 * `createCaller` like permissions.caller.test.ts: every procedure that reads or acts on one
 * issue, called on an issue restricted to a group, by six kinds of caller. The expectations
 * are written by hand from the rule (auth/issue-access.ts): within READ_ISSUE in the project,
 * a restricted issue is read by the group's members, its reporter and READ_HIDDEN_STUFF holders.
 *
 * Callers (all in project VIS unless said):
 * - root: every permission, globally;
 * - member: Developer, member of the group;
 * - reporter: Reporter, who reported the issue, not a member;
 * - padmin: Project Admin (READ_HIDDEN_STUFF), not a member;
 * - outsider: Developer, not a member;
 * - observer: Observer, not a member (reads issues, no private fields).
 */
type Kind = 'root' | 'member' | 'reporter' | 'padmin' | 'outsider' | 'observer';
const KINDS: Kind[] = ['root', 'member', 'reporter', 'padmin', 'outsider', 'observer'];
const LOGINS: Record<Kind, string> = {
  root: 'root',
  member: 'vm_member',
  reporter: 'vm_reporter',
  padmin: 'vm_padmin',
  outsider: 'vm_outsider',
  observer: 'vm_observer',
};

const OK = 'ok';
const DENIED = 'PERMISSION_DENIED';
const HIDDEN = 'NOT_FOUND';
const INVALID = 'VALIDATION_FAILED';
type Outcome = typeof OK | typeof DENIED | typeof HIDDEN | typeof INVALID;

/** Readers of the restricted issue; everyone else finds it missing. */
const READERS = {
  root: OK,
  member: OK,
  reporter: OK,
  padmin: OK,
  outsider: HIDDEN,
  observer: HIDDEN,
} as const;
/** Readers who also hold the row's second permission (Reporter does not update or delete). */
const WRITERS = { ...READERS, reporter: DENIED } as const;

let orm: Orm;
/** The restricted issue, reported by `reporter`. */
let secret = '';
/** Two open issues: `many` has two comments restricted to the team, `one` one comment for everyone. */
let sortcheck = { many: '', one: '' };

type Row = { input: (key: string) => unknown | Promise<unknown>; expect: Record<Kind, Outcome> };

// biome-ignore format: one row per procedure, aligned for reading
const ROWS: Record<string, Row> = {
  'issues.get':            { input: () => ({ issue: secret }), expect: READERS },
  'issues.exists':         { input: () => ({ issue: secret }), expect: READERS },
  'issues.comments':       { input: () => ({ issue: secret }), expect: READERS },
  'issues.links':          { input: () => ({ issue: secret }), expect: READERS },
  'issues.changes':        { input: () => ({ issue: secret }), expect: READERS },
  'issues.activity':       { input: () => ({ issue: secret }), expect: READERS },
  'issues.intellisense':   { input: () => ({ issue: secret, command: 'Pri' }), expect: READERS },
  'attachments.list':      { input: () => ({ issue: secret }), expect: READERS },
  'timeTracking.workItems': { input: () => ({ issue: secret }), expect: READERS },
  'issues.execute':        { input: (key) => ({ issue: secret, comment: `seen by ${key}` }), expect: { ...READERS } },
  'issues.executeAlias':   { input: (key) => ({ issue: secret, comment: `aliased ${key}` }), expect: { ...READERS } },
  'issues.update':         { input: (key) => ({ issue: secret, description: `edited by ${key}` }), expect: WRITERS },
  'issues.delete':         { input: async (key) => ({ issue: await restricted(`to delete ${key}`) }), expect: WRITERS },
};

/**
 * A new issue restricted to the group, reported by the reporter (who may not name a group it is
 * not in: root restricts it).
 */
async function restricted(summary: string): Promise<string> {
  const reporter = await actorFor(orm, LOGINS.reporter);
  const { id } = await createIssue(fork(orm), reporter, { project: 'VIS', summary });
  await executeCommand(fork(orm), await actorFor(orm, 'root'), [id], 'visible to vm-team');
  return id;
}

const actorOf = (kind: Kind): Promise<Actor> => actorFor(orm, LOGINS[kind]);
const outcomeOf = (result: Awaited<ReturnType<typeof callProcedure>>) => (result.ok ? OK : result.code);

beforeAll(async () => {
  orm = await createTestOrm();
  const root = await actorFor(orm, 'root');
  await createProject(fork(orm), root, { shortName: 'VIS', name: 'Visibility matrix' });
  await userWithRole(orm, LOGINS.member, 'Developer', 'VIS');
  await userWithRole(orm, LOGINS.reporter, 'Reporter', 'VIS');
  await userWithRole(orm, LOGINS.padmin, 'Project Admin', 'VIS');
  await userWithRole(orm, LOGINS.outsider, 'Developer', 'VIS');
  await userWithRole(orm, LOGINS.observer, 'Observer', 'VIS');
  await createGroup(fork(orm), root, 'vm-team');
  await addUserToGroup(fork(orm), root, LOGINS.member, 'vm-team');
  await createIssue(fork(orm), root, { project: 'VIS', summary: 'open to the project' });
  secret = await restricted('restricted to the team');
  // A private field with a value on both issues.
  await createBundle(fork(orm), root, 'bundle', { name: 'Costs', values: [{ name: 'Steep' }] });
  await addBundleValue(fork(orm), root, 'bundle', 'Costs', { name: 'Cheap' });
  await createPrototype(fork(orm), root, {
    name: 'Cost',
    type: 'enum[1]',
    defaultBundle: 'Costs',
    isPrivate: true,
  });
  await attachProjectCustomField(fork(orm), root, 'VIS', 'Cost', {});
  await executeCommand(fork(orm), root, ['VIS-1', secret], 'Cost Steep');
  // The open issue relates to the restricted one (link terms, below).
  await executeCommand(fork(orm), root, ['VIS-1'], `relates to ${secret}`);
  // Sorting by comments (below): two comments for the team only, against one for everyone.
  const many = (await createIssue(fork(orm), root, { project: 'VIS', summary: 'sortcheck many' })).id;
  const one = (await createIssue(fork(orm), root, { project: 'VIS', summary: 'sortcheck one' })).id;
  sortcheck = { many, one };
  for (const text of ['team only', 'team again'])
    await executeCommand(fork(orm), root, [many], undefined, text, undefined, { commentGroup: 'vm-team' });
  await executeCommand(fork(orm), root, [one], undefined, 'for everyone');
});
afterAll(() => orm?.close());

describe('issue visibility: every procedure on a restricted issue, through createCaller', () => {
  for (const [path, row] of Object.entries(ROWS)) {
    describe(path, () => {
      for (const kind of KINDS) {
        it(`${kind}: ${row.expect[kind]}`, async () => {
          const input = await row.input(`${kind}_${path}`);
          const result = await callProcedure(orm, await actorOf(kind), path, input);
          expect(outcomeOf(result)).toBe(row.expect[kind]);
          // Hidden reads exactly like missing.
          if (!result.ok && row.expect[kind] === HIDDEN)
            expect(result.message).toMatch(/^Issue \[ .+ \] not found\.$/);
        });
      }
    });
  }

  // The lists: not an error, a smaller answer. The count and the page agree.
  const listed: Record<Kind, boolean> = {
    root: true,
    member: true,
    reporter: true,
    padmin: true,
    outsider: false,
    observer: false,
  };
  for (const kind of KINDS) {
    it(`search, byProject and count, ${kind}: ${listed[kind] ? 'listed' : 'left out'}`, async () => {
      const actor = await actorOf(kind);
      const search = await callProcedure(orm, actor, 'issues.search', { filter: 'project: VIS' });
      const byProject = await callProcedure(orm, actor, 'issues.byProject', { project: 'VIS' });
      const count = await callProcedure(orm, actor, 'issues.count', { filter: 'project: VIS' });
      if (!search.ok || !byProject.ok || !count.ok) throw new Error('a list failed');
      const ids = (search.value as { issue: { id: string }[] }).issue.map((i) => i.id);
      expect(ids.includes(secret)).toBe(listed[kind]);
      expect((byProject.value as { id: string }[]).some((i) => i.id === secret)).toBe(listed[kind]);
      expect(count.value).toMatchObject({ value: ids.length });
    });
  }
});

describe('link terms naming the restricted issue, through createCaller', () => {
  /** A search's ids and its count, as the caller gets them. */
  const answers = async (actor: Actor, filter: string) => {
    const search = await callProcedure(orm, actor, 'issues.search', { filter });
    const count = await callProcedure(orm, actor, 'issues.count', { filter });
    if (!search.ok || !count.ok) throw new Error(`${filter} failed`);
    return {
      ids: (search.value as { issue: { id: string }[] }).issue.map((i) => i.id),
      count: (count.value as { value: number }).value,
    };
  };
  for (const kind of KINDS) {
    const reads = READERS[kind] === OK;
    it(`${kind}: ${reads ? 'links to it count' : 'they answer like links to a missing issue'}`, async () => {
      const actor = await actorOf(kind);
      const none = await answers(actor, 'links: VIS-999');
      expect(none).toEqual({ ids: [], count: 0 });
      for (const filter of [`links: ${secret}`, `relates to: ${secret}`])
        expect(await answers(actor, filter)).toEqual(reads ? { ids: ['VIS-1'], count: 1 } : none);
      const has = await answers(actor, 'has: links');
      expect(has.ids.includes('VIS-1')).toBe(reads);
      expect(has.count).toBe(has.ids.length);
    });
  }
});

describe('sorting by comments counts the comments the caller sees, through createCaller', () => {
  /** Who sees the team's comments: its members and their author (root); READ_HIDDEN_STUFF does not. */
  const seesTeamComments: Record<Kind, boolean> = {
    root: true,
    member: true,
    reporter: false,
    padmin: false,
    outsider: false,
    observer: false,
  };
  for (const kind of KINDS) {
    it(`${kind}: ${seesTeamComments[kind] ? 'two comments before one' : 'one comment before none'}`, async () => {
      const actor = await actorOf(kind);
      const order = async (direction: string) => {
        const result = await callProcedure(orm, actor, 'issues.search', {
          filter: `summary: sortcheck sort by: comments ${direction}`,
        });
        if (!result.ok) throw new Error('the search failed');
        return (result.value as { issue: { id: string }[] }).issue.map((i) => i.id);
      };
      const first = seesTeamComments[kind]
        ? [sortcheck.many, sortcheck.one]
        : [sortcheck.one, sortcheck.many];
      expect(await order('desc')).toEqual(first);
      expect(await order('asc')).toEqual([...first].reverse());
    });
  }
});

describe('private fields through createCaller', () => {
  /** Observer lacks PRIVATE_READ_ISSUE; everyone else here holds it (Developer, Project Admin, root). */
  const readsPrivate: Record<Kind, boolean> = {
    root: true,
    member: true,
    reporter: false,
    padmin: true,
    outsider: true,
    observer: false,
  };

  for (const kind of KINDS) {
    it(`${kind}: the value is ${readsPrivate[kind] ? 'shown and searchable' : 'absent and unknown'}`, async () => {
      const actor = await actorOf(kind);
      const got = await callProcedure(orm, actor, 'issues.get', { issue: 'VIS-1' });
      if (!got.ok) throw new Error('VIS-1 is readable by every caller here');
      const names = (got.value as { field: { name: string }[] }).field.map((f) => f.name);
      expect(names.includes('Cost')).toBe(readsPrivate[kind]);
      const search = await callProcedure(orm, actor, 'issues.search', { filter: 'Cost: Steep' });
      const count = await callProcedure(orm, actor, 'issues.count', { filter: '#Steep' });
      expect(outcomeOf(search)).toBe(readsPrivate[kind] ? OK : INVALID);
      expect(outcomeOf(count)).toBe(readsPrivate[kind] ? OK : INVALID);
      const assist = await callProcedure(orm, actor, 'issues.searchIntellisense', { filter: 'Co' });
      if (!assist.ok) throw new Error('the search assist failed');
      expect(JSON.stringify(assist.value).includes('"Cost"')).toBe(readsPrivate[kind]);
      const changes = await callProcedure(orm, actor, 'issues.changes', { issue: 'VIS-1' });
      if (!changes.ok) throw new Error('history is readable');
      expect(JSON.stringify(changes.value).includes('Cost')).toBe(readsPrivate[kind]);
    });
  }

  // Setting: PRIVATE_UPDATE_ISSUE (Developer, Project Admin, root); a reader without it is refused
  // (403); a caller who may not read it gets the answer of an unknown word (400).
  const setting: Record<Kind, Outcome> = {
    root: OK,
    member: OK,
    reporter: INVALID,
    padmin: OK,
    outsider: OK,
    observer: INVALID,
  };
  for (const kind of KINDS) {
    it(`${kind}: setting it by command is ${setting[kind]}`, async () => {
      const result = await callProcedure(orm, await actorOf(kind), 'issues.execute', {
        issue: 'VIS-1',
        command: 'Cost Cheap',
      });
      expect(outcomeOf(result)).toBe(setting[kind]);
      await executeCommand(fork(orm), await actorFor(orm, 'root'), ['VIS-1'], 'Cost Steep');
    });
  }
});

/**
 * What puts a caller into the group (issue 37, items 2 and 3): merging a member of it into an
 * account, and an import that adds its assignees to it. Both need UPDATE_USERGROUP, as adding the
 * member by hand does, whatever else the caller holds; a group an import creates needs nothing more.
 *
 * Callers: root; `hr` (UPDATE_USER, DELETE_USER, READ_USER and IMPORT_DATA, no UPDATE_USERGROUP);
 * `hr_groups` (the same and UPDATE_USERGROUP); the group's own member (a Developer, none of those).
 */
describe('joining the group by merge or import, through createCaller', () => {
  type Joiner = 'root' | 'hr' | 'hr_groups' | 'member';
  const JOINERS: Joiner[] = ['root', 'hr', 'hr_groups', 'member'];
  const LOGIN: Record<Joiner, string> = {
    root: 'root',
    hr: 'vm_hr',
    hr_groups: 'vm_hr_groups',
    member: LOGINS.member,
  };
  let imported = 500;
  /** The caller's own login as the only assignee: the import would make it a member. */
  const importInput = (login: string, assigneeGroup: string) => ({
    project: 'VIS',
    assigneeGroup,
    issues: [
      {
        fields: [
          { name: 'numberInProject', values: [String(++imported)] },
          { name: 'summary', values: ['imported'] },
          { name: 'created', values: ['1400000000000'] },
          { name: 'reporterName', values: ['root'] },
          { name: 'Assignee', values: [login] },
        ],
        comments: [],
      },
    ],
  });

  // biome-ignore format: one row per case, aligned for reading
  const CASES: Record<string, { call: (joiner: Joiner, key: string) => Promise<[string, unknown]>; expect: Record<Joiner, Outcome> }> = {
    'users.merge of a member of the group into oneself': {
      call: async (joiner, key) => {
        const twin = `vm_twin_${key}`;
        await userWithRole(orm, twin);
        await addUserToGroup(fork(orm), await actorFor(orm, 'root'), twin, 'vm-team');
        return ['users.merge', { login: LOGIN[joiner], loginToMerge: twin }];
      },
      expect: { root: OK, hr: DENIED, hr_groups: OK, member: DENIED },
    },
    'import.issues with assigneeGroup = the group, oneself the assignee': {
      call: async (joiner) => ['import.issues', importInput(LOGIN[joiner], 'vm-team')],
      expect: { root: OK, hr: DENIED, hr_groups: OK, member: DENIED },
    },
    'import.issues with assigneeGroup = a missing group (created without roles)': {
      call: async (joiner, key) => ['import.issues', importInput(LOGIN[joiner], `vm-new-${key}`)],
      expect: { root: OK, hr: OK, hr_groups: OK, member: DENIED },
    },
  };

  beforeAll(async () => {
    const root = await actorFor(orm, 'root');
    for (const [login, extra] of [
      ['vm_hr', []],
      ['vm_hr_groups', ['UPDATE_USERGROUP']],
    ] as const) {
      const role = `Role_${login}`;
      await createRole(fork(orm), root, role, 'merge and import');
      for (const key of ['UPDATE_USER', 'DELETE_USER', 'READ_USER', 'IMPORT_DATA', ...extra])
        await addRolePermission(fork(orm), root, role, key);
      await userWithRole(orm, login, role);
      await grantRole(fork(orm), root, login, 'Developer', 'VIS');
    }
  });

  for (const [name, row] of Object.entries(CASES)) {
    for (const joiner of JOINERS) {
      it(`${name}, ${joiner}: ${row.expect[joiner]}`, async () => {
        const [path, input] = await row.call(joiner, `${joiner}_${Object.keys(CASES).indexOf(name)}`);
        const result = await callProcedure(orm, await actorFor(orm, LOGIN[joiner]), path, input);
        expect(outcomeOf(result)).toBe(row.expect[joiner]);
        // Refused: still no member, still not reading the restricted issue.
        if (!result.ok && joiner !== 'member') {
          const read = await callProcedure(orm, await actorFor(orm, LOGIN[joiner]), 'issues.get', {
            issue: secret,
          });
          expect(outcomeOf(read)).toBe(HIDDEN);
        }
      });
    }
  }
});
