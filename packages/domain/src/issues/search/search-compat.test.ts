import {
  actorFor,
  createTestOrm,
  createTestOrmOnDisk,
  fork,
  op,
  userWithRole,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { createSavedSearch } from '../../folders/saved-searches.js';
import type { Em } from '../../orm/em.js';
import type { Orm } from '../../orm/open-orm.js';
import { runStatement, storedTime } from '../../orm/statements.js';
import { createProject } from '../../projects/projects.js';
import { grantRole } from '../../users/users.js';
import { applyCommand } from '../apply-command.js';
import { createIssue } from '../create-issue.js';
import { addProjectAssignee } from '../fields/assignees.js';
import { type SearchEngineHandle, startSearchEngine } from './search-engine.js';
import { indexQueuedIssues } from './search-index.js';
import { countIssues, searchIssues } from './search-issues.js';

/**
 * The compatibility suite: the examples of the original's "Search Query Grammar" page and, per
 * attribute of its "Search Query Reference", its forms, answered over a small data set whose
 * right answers were worked out by hand from the documentation (not from our output). Runs on
 * SQLite and PostgreSQL.
 *
 * Data (created in this order, so newest first = reverse): CA-1 … CD-1.
 *   CA-1 "Crash on startup" / "The app deadlocks at launch"; Fixed, Critical, for alice;
 *        created 2014-10-24 10:00Z, resolved 2014-10-25; relates to CB-2
 *   CA-2 "Typo in menu" / "Cosmetic"; Open, Minor, for bob; reported by alice; tag perf;
 *        bob commented "export configuration fails"; created 2014-10-31 23:30Z
 *   CA-3 "Slow export"; Open, Critical, unassigned; tag ux; an attachment; root starred it,
 *        alice voted; created 2014-11-05; parent of CB-1
 *   CB-1 "Export configuration dialog" / "exporting the configuration crashes"; In Progress,
 *        Major, for alice; subtask of CA-3; created 2015-01-10
 *   CB-2 "Database deadlock"; Verified, Show-stopper, for bob; tag perf; alice commented
 *        "deadlock again"; created 2015-02-01, resolved 2015-02-02
 *   CC-1 "Hidden crash"; Open, Critical; created 2016-01-01
 *   CD-1 "Hidden deadlock"; Fixed, Normal; created 2016-02-01, resolved 2016-02-02
 * alice ("Zoe Alice") and bob ("Adam Bob") are Developers in CA and CB; `half` reads CA and CB
 * only (half of the projects).
 *
 * Each answer is asked of both places a server's searches can run: the request's own connection
 * (tests, transactions) and the search engine a server starts (SQLite: worker processes on the
 * file, which bind their own parameters; PostgreSQL: the search pool's sessions and their
 * settings).
 */
describe.each(['the request connection', 'the search engine'])(
  'search compatibility (grammar and reference pages), on %s',
  (runner) => {
    let orm: Orm;
    let engine: SearchEngineHandle | undefined;
    let removeFiles = () => {};
    let root: Actor;
    let alice: Actor;
    let half: Actor;
    const NOV_2014 = Date.UTC(2014, 10, 15);
    const ids = async (
      query: string,
      actor = root,
      options: { now?: number; timeZone?: string; max?: number } = {},
    ) =>
      (
        await searchIssues(fork(orm), actor, query, {
          max: options.max ?? 100,
          now: options.now,
          timeZone: options.timeZone,
        })
      ).map((i) => i.id);

    const setTime = async (issue: string, column: string, iso: string) => {
      const em = fork(orm) as Em;
      const [prefix, number] = issue.split('-');
      await runStatement(
        em,
        `update issues set ${column} = ? where number_in_project = ? and project_id = (select id from projects where short_name = ?)`,
        [await storedTime(em, new Date(iso)), Number(number), prefix],
      );
    };

    beforeAll(async () => {
      let file: string | undefined;
      if (runner === 'the search engine') ({ orm, file, remove: removeFiles } = await createTestOrmOnDisk());
      else orm = await createTestOrm();
      root = await actorFor(orm, 'root');
      for (const p of ['CA', 'CB', 'CC', 'CD'])
        await createProject(fork(orm), root, { shortName: p, name: `Project ${p}` });
      await userWithRole(orm, 'alice', 'Developer', 'CA');
      await userWithRole(orm, 'bob', 'Developer', 'CA');
      await userWithRole(orm, 'half', 'Observer', 'CA');
      for (const login of ['alice', 'bob']) await grantRole(fork(orm), root, login, 'Developer', 'CB');
      await grantRole(fork(orm), root, 'half', 'Observer', 'CB');
      await runStatement(fork(orm) as Em, "update users set full_name = 'Zoe Alice' where login = 'alice'");
      await runStatement(fork(orm) as Em, "update users set full_name = 'Adam Bob' where login = 'bob'");
      for (const p of ['CA', 'CB'])
        for (const login of ['alice', 'bob']) await addProjectAssignee(fork(orm), root, p, login);
      alice = await actorFor(orm, 'alice');
      half = await actorFor(orm, 'half');
      const bob = await actorFor(orm, 'bob');
      const create = (project: string, summary: string, description = '', actor = root) =>
        createIssue(fork(orm), actor, { project, summary, description });
      const run = (actor: Actor, id: string, ops: ReturnType<typeof op.set>[], comment?: string) =>
        applyCommand(fork(orm), actor, [id], ops, comment);
      await create('CA', 'Crash on startup', 'The app deadlocks at launch');
      await create('CA', 'Typo in menu', 'Cosmetic', alice);
      await create('CA', 'Slow export');
      await create('CB', 'Export configuration dialog', 'exporting the configuration crashes');
      await create('CB', 'Database deadlock');
      await create('CC', 'Hidden crash');
      await create('CD', 'Hidden deadlock');
      await run(root, 'CA-1', [
        op.set('State', 'Fixed'),
        op.set('Priority', 'Critical'),
        op.set('Assignee', 'alice'),
        op.link('Relates', 'CB-2'),
      ]);
      await run(root, 'CA-2', [
        op.set('State', 'Open'),
        op.set('Priority', 'Minor'),
        op.set('Assignee', 'bob'),
        op.tag('perf'),
      ]);
      await run(bob, 'CA-2', [op.comment()], 'export configuration fails');
      await run(root, 'CA-3', [
        op.set('State', 'Open'),
        op.set('Priority', 'Critical'),
        op.tag('ux'),
        op.star(),
      ]);
      await run(alice, 'CA-3', [op.vote()]);
      await run(root, 'CB-1', [
        op.set('State', 'In Progress'),
        op.set('Priority', 'Major'),
        op.set('Assignee', 'alice'),
        op.link('Subtask', 'CA-3', false),
      ]);
      await run(root, 'CB-2', [
        op.set('State', 'Verified'),
        op.set('Priority', 'Show-stopper'),
        op.set('Assignee', 'bob'),
        op.tag('perf'),
      ]);
      await run(alice, 'CB-2', [op.comment()], 'deadlock again');
      await run(root, 'CC-1', [op.set('State', 'Open'), op.set('Priority', 'Critical')]);
      await run(root, 'CD-1', [op.set('State', 'Fixed'), op.set('Priority', 'Normal')]);
      const em = fork(orm) as Em;
      await runStatement(
        em,
        "insert into issue_attachments (issue_id, name, content_hash, size, content_type, author_id, created_at) select i.id, 'sketch.png', 'ab', 1, 'image/png', i.reporter_id, i.created_at from issues i join projects p on p.id = i.project_id where p.short_name = 'CA' and i.number_in_project = 3",
      );
      const created: [string, string][] = [
        ['CA-1', '2014-10-24T10:00:00Z'],
        ['CA-2', '2014-10-31T23:30:00Z'],
        ['CA-3', '2014-11-05T12:00:00Z'],
        ['CB-1', '2015-01-10T12:00:00Z'],
        ['CB-2', '2015-02-01T12:00:00Z'],
        ['CC-1', '2016-01-01T12:00:00Z'],
        ['CD-1', '2016-02-01T12:00:00Z'],
      ];
      for (const [id, at] of created) await setTime(id, 'created_at', at);
      await setTime('CA-1', 'resolved_at', '2014-10-25T12:00:00Z');
      await setTime('CB-2', 'resolved_at', '2015-02-02T12:00:00Z');
      await setTime('CD-1', 'resolved_at', '2016-02-02T12:00:00Z');
      await createSavedSearch(fork(orm), root, {
        name: 'Open critical',
        query: 'State: Open Priority: Critical',
      });
      if (runner === 'the search engine') {
        // The text index as the engine's indexer would have it by now (SQLite; nothing on PostgreSQL).
        if (file) await indexQueuedIssues(fork(orm));
        engine = await startSearchEngine(orm, { file, workers: 2 });
      }
    }, 120_000);
    afterAll(async () => {
      await engine?.stop();
      await orm.close(true);
      removeFiles();
    });

    const ALL = ['CD-1', 'CC-1', 'CB-2', 'CB-1', 'CA-3', 'CA-2', 'CA-1'];

    describe('the grammar page examples', () => {
      it.each<[string, string[], Actor?]>([
        // "export configuration": word forms of both words, in that order, in summary, description or comments
        ['"export configuration"', ['CB-1', 'CA-2']],
        // for: me #unresolved: unresolved issues assigned to the current user
        ['for: me #unresolved', ['CB-1']],
        // for: me unresolved: assigned to the current user and containing the word "unresolved"
        ['for: me unresolved', []],
        // for: <login>: assigned to that user
        ['for: alice', ['CB-1', 'CA-1']],
        // <login> alone: a word
        ['alice', []],
        // #<login>: created by or assigned to that user
        ['#alice', ['CB-1', 'CA-2', 'CA-1']],
      ])('%s', async (query, expected) => {
        expect(await ids(query, query.includes('me') ? alice : root)).toEqual(expected);
      });
    });

    describe('operators: or, and, parentheses, repetition', () => {
      it.each<[string, string[]]>([
        ['(State: Open) or (State: Fixed)', ['CD-1', 'CC-1', 'CA-3', 'CA-2', 'CA-1']],
        ['State: Open or Priority: Show-stopper', ['CC-1', 'CB-2', 'CA-3', 'CA-2']],
        ['State: Open and Priority: Critical', ['CC-1', 'CA-3']],
        ['Priority: Critical State: Open', ['CC-1', 'CA-3']],
        ['State: Open, Fixed', ['CD-1', 'CC-1', 'CA-3', 'CA-2', 'CA-1']],
        // The same attribute twice is an alternative; different attributes must both hold.
        ['#Fixed #Open', ['CD-1', 'CC-1', 'CA-3', 'CA-2', 'CA-1']],
        ['#Fixed #Critical', ['CA-1']],
        ['tag: perf tag: ux', ['CB-2', 'CA-3', 'CA-2']],
        ['State: Open State: Fixed', ['CD-1', 'CC-1', 'CA-3', 'CA-2', 'CA-1']],
        ['(State: Open or State: Fixed) and Priority: Critical', ['CC-1', 'CA-3', 'CA-1']],
        ['((crash))', ['CC-1', 'CB-1', 'CA-1']],
        ['OR', []],
      ])('%s', async (query, expected) => {
        if (query === 'OR') {
          await expect(ids(query)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
          return;
        }
        expect(await ids(query)).toEqual(expected);
      });
    });

    describe('exclusion: -value, attr: -value, -"text"', () => {
      it.each<[string, string[]]>([
        ['-Fixed', ['CC-1', 'CB-2', 'CB-1', 'CA-3', 'CA-2']],
        ['State: -Fixed', ['CC-1', 'CB-2', 'CB-1', 'CA-3', 'CA-2']],
        ['State: -Fixed, -Verified', ['CC-1', 'CB-1', 'CA-3', 'CA-2']],
        ['#Open -Critical', ['CA-2']],
        ['-"export configuration"', ['CD-1', 'CC-1', 'CB-2', 'CA-3', 'CA-1']],
        ['-{In Progress}', ['CD-1', 'CC-1', 'CB-2', 'CA-3', 'CA-2', 'CA-1']],
        ['Assignee: -alice', ['CD-1', 'CC-1', 'CB-2', 'CA-3', 'CA-2']],
        ['has: -comments', ['CD-1', 'CC-1', 'CB-1', 'CA-3', 'CA-1']],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });
    });

    describe('text: words, word forms, phrases, fields', () => {
      it.each<[string, string[]]>([
        ['export', ['CB-1', 'CA-3', 'CA-2']],
        ['exporting', ['CB-1', 'CA-3', 'CA-2']],
        ['deadlock', ['CD-1', 'CB-2', 'CA-1']],
        ['DEADLOCK crash', ['CA-1']],
        ['summary: deadlock', ['CD-1', 'CB-2']],
        ['description: deadlock', ['CA-1']],
        ['comments: deadlock', ['CB-2']],
        ['{on startup}', ['CA-1']],
        ['expor*', ['CB-1', 'CA-3', 'CA-2']],
        ['nosuchword', []],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });
    });

    // The original's wildcard: `*` stands for any letters and digits within one word (search-text.ts).
    describe('text: wildcards, one meaning on both databases', () => {
      it.each<[string, string[]]>([
        // At the end: words starting with it (their English forms: `dead*` finds "deadlocks").
        ['dead*', ['CD-1', 'CB-2', 'CA-1']],
        ['c*', ['CC-1', 'CB-1', 'CA-2', 'CA-1']],
        // A prefix that is an English stop word ("a"): PostgreSQL found nothing (issue 37, item 15).
        ['a* project: CA', ['CA-1']],
        // Inside a word: a word form matching it ("deadlock", "crash", "export": the forms of
        // "deadlocks", "crashes", "exporting"); before, two words.
        ['de*ck', ['CD-1', 'CB-2', 'CA-1']],
        ['cr*h', ['CC-1', 'CB-1', 'CA-1']],
        ['ex*rt', ['CB-1', 'CA-3', 'CA-2']],
        ['d*a*s', ['CB-2']],
        ['de*ck*', ['CD-1', 'CB-2', 'CA-1']],
        ['crash de*ck', ['CA-1']],
        ['summary: de*ck', ['CD-1', 'CB-2']],
        ['comments: de*ck', ['CB-2']],
        // At the start: ignored (no index finds a word by its end).
        ['*crash', ['CC-1', 'CB-1', 'CA-1']],
        ['*lock', []],
        // Quoted, `*` is punctuation: the word itself.
        ['"expor*"', []],
        ['"deadlock*"', ['CD-1', 'CB-2', 'CA-1']],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
        expect(await countIssues(fork(orm), root, query)).toBe(expected.length);
      });
    });

    describe('attributes of the reference', () => {
      it.each<[string, string[]]>([
        ['project: CA', ['CA-3', 'CA-2', 'CA-1']],
        ['project: {Project CB}', ['CB-2', 'CB-1']],
        ['project: CA, CB', ['CB-2', 'CB-1', 'CA-3', 'CA-2', 'CA-1']],
        ['CA-2', ['CA-2']],
        ['issue id: CA-1, CB-2', ['CB-2', 'CA-1']],
        ['by: alice', ['CA-2']],
        ['reporter: alice', ['CA-2']],
        ['reported by: root project: CB', ['CB-2', 'CB-1']],
        ['created by: alice', ['CA-2']],
        ['commenter: bob', ['CA-2']],
        ['commented by: alice', ['CB-2']],
        ['assigned to: bob', ['CB-2', 'CA-2']],
        ['Assignee: Unassigned', ['CD-1', 'CC-1', 'CA-3']],
        ['#Unassigned project: CA', ['CA-3']],
        ['State: {In Progress}', ['CB-1']],
        ['#{In Progress}', ['CB-1']],
        ['#Resolved', ['CD-1', 'CB-2', 'CA-1']],
        ['#Unresolved', ['CC-1', 'CB-1', 'CA-3', 'CA-2']],
        ['State: Resolved', ['CD-1', 'CB-2', 'CA-1']],
        ['Priority: Critical .. Major', ['CC-1', 'CB-1', 'CA-3', 'CA-1']],
        ['tag: perf', ['CB-2', 'CA-2']],
        ['#ux', ['CA-3']],
        ['saved search: {Open critical}', ['CC-1', 'CA-3']],
        ['votes: 1 .. *', ['CA-3']],
        ['votes: 0', ['CD-1', 'CC-1', 'CB-2', 'CB-1', 'CA-2', 'CA-1']],
        ['subtask of: CA-3', ['CB-1']],
        ['parent for: CB-1', ['CA-3']],
        ['relates to: CA-1', ['CB-2']],
        ['relates to: CB-2', ['CA-1']],
        ['links: CA-1', ['CB-2']],
        ['subtask of: (Priority: Critical)', ['CB-1']],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });

      it.each<[string, string[]]>([
        ['has: attachments', ['CA-3']],
        ['has: comments', ['CB-2', 'CA-2']],
        ['has: description', ['CB-1', 'CA-2', 'CA-1']],
        ['has: links', ['CB-2', 'CB-1', 'CA-3', 'CA-1']],
        ['has: votes', ['CA-3']],
        ['has: star', ['CA-3']],
        ['has: Assignee', ['CB-2', 'CB-1', 'CA-2', 'CA-1']],
        ['has: Assignee, comments', ['CB-2', 'CA-2']],
        ['has: {subtask of}', ['CB-1']],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });
    });

    describe('dates: absolute, ranges, relative, in the time zone of the setting', () => {
      it.each<[string, string[], string?]>([
        ['created: 2014-10-24', ['CA-1']],
        ['created: 2014-10', ['CA-2', 'CA-1']],
        ['created: 2014-10-01 .. 2014-10-31', ['CA-2', 'CA-1']],
        ['created: * .. 2014-10-31', ['CA-2', 'CA-1']],
        ['created: 2016-01-01 .. *', ['CD-1', 'CC-1']],
        ['resolved date: 2014-10-01 .. 2014-10-31', ['CA-1']],
        ['resolved date: 2015', ['CB-2']],
        // 23:30 UTC on Oct 31 is 00:30 on Nov 1 in Berlin.
        ['created: 2014-10-01 .. 2014-10-31', ['CA-1'], 'Europe/Berlin'],
        ['created: 2014-11-01', ['CA-2'], 'Europe/Berlin'],
        // Relative dates at 2014-11-15.
        ['created: {Last month}', ['CA-2', 'CA-1']],
        ['created: {This month}', ['CA-3']],
        ['created: {This year}', ['CA-3', 'CA-2', 'CA-1']],
        ['created: {Last month} .. Today', ['CA-3', 'CA-2', 'CA-1']],
      ])('%s (%s)', async (query, expected, timeZone) => {
        expect(await ids(query, root, { now: NOV_2014, timeZone })).toEqual(expected);
      });

      it('Older: before the start of last month, in the time zone', async () => {
        const now = Date.UTC(2014, 11, 15);
        expect(await ids('created: Older', root, { now })).toEqual(['CA-2', 'CA-1']);
        // In UTC+14 CA-2 was created on November 1.
        expect(await ids('created: Older', root, { now, timeZone: 'Pacific/Kiritimati' })).toEqual(['CA-1']);
      });

      it('updated: Today is today', async () => {
        expect(await ids('updated: Today')).toEqual(ALL);
        expect(await ids('updated: Yesterday')).toEqual([]);
      });
    });

    describe('sort by', () => {
      it.each<[string, string[]]>([
        // Fields sort by their bundle order: Show-stopper, Critical, Major, Normal, Minor.
        ['project: CA sort by: Priority', ['CA-3', 'CA-1', 'CA-2']],
        ['project: CA sort by: Priority desc', ['CA-2', 'CA-3', 'CA-1']],
        ['sort by: Priority', ['CB-2', 'CC-1', 'CA-3', 'CA-1', 'CB-1', 'CD-1', 'CA-2']],
        // Users by full name: Adam Bob before Zoe Alice.
        ['project: CB sort by: Assignee', ['CB-2', 'CB-1']],
        ['project: CA sort by: created asc', ['CA-1', 'CA-2', 'CA-3']],
        ['sort by: votes desc, created asc', ['CA-3', 'CA-1', 'CA-2', 'CB-1', 'CB-2', 'CC-1', 'CD-1']],
        ['#Resolved order by: {resolved date}', ['CD-1', 'CB-2', 'CA-1']],
        ['project: CA sort by: summary', ['CA-1', 'CA-3', 'CA-2']],
      ])('%s', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });
    });

    describe('permissions inside the query: a caller who reads half of the projects', () => {
      it('sees only readable issues, counts only them, and gets full pages', async () => {
        expect(await ids('', half)).toEqual(['CB-2', 'CB-1', 'CA-3', 'CA-2', 'CA-1']);
        expect(await ids('#Open', half)).toEqual(['CA-3', 'CA-2']);
        expect(await countIssues(fork(orm), half, '#Open')).toBe(2);
        expect(await countIssues(fork(orm), root, '#Open')).toBe(3);
        expect(await ids('deadlock', half)).toEqual(['CB-2', 'CA-1']);
        expect(await countIssues(fork(orm), half, 'deadlock')).toBe(2);
        expect(await countIssues(fork(orm), half, '')).toBe(5);
        // The newest issues are unreadable: the page still holds max readable ones.
        expect(await ids('', half, { max: 2 })).toEqual(['CB-2', 'CB-1']);
        expect(await ids('crash', half, { max: 1 })).toEqual(['CB-1']);
        // Linked-issue queries only see readable issues too.
        expect(await ids('relates to: (Priority: Show-stopper)', half)).toEqual(['CA-1']);
      });

      it('refuses an unreadable project exactly like a missing one', async () => {
        const hidden = await ids('project: CC', half).catch((e: Error) => e.message);
        const missing = await ids('project: ZZ', half).catch((e: Error) => e.message);
        expect(hidden).toBe('query: Unknown project [ CC ] at position 9');
        expect(missing).toBe('query: Unknown project [ ZZ ] at position 9');
      });
    });

    describe('malformed queries and unknown names: 400 naming the term and its position', () => {
      it.each<[string, string]>([
        ['Color: red', 'Unknown search attribute [ Color ] at position 0'],
        ['crash Color: red', 'Unknown search attribute [ Color ] at position 6'],
        ['State: Nonsense', 'Unknown value [ Nonsense ] at position 7 of field [ State ]'],
        ['(State: Open', "Missing ')' to close [ ( ] at position 0"],
        ['State: Open)', "Unexpected [ ) ] at position 11: no '(' opens it"],
        ['State: Open or', "[ or ] at position 12: 'or' needs a term on each side"],
        ['sort by: nonsense', 'Cannot sort by [ nonsense ] at position 9'],
        ['has: nonsense', 'Unknown attribute of has: [ nonsense ] at position 5'],
        ['created: notadate', 'Not a date [ notadate ] at position 9: use YYYY-MM-DD, Today, {This week}…'],
        ['created: 2014-10-01 ..', 'Missing upper bound after [ .. ] at position 20'],
        ['State: Open, ', 'Missing value after [ , ] at position 11'],
        ['#', 'Missing value after [ # ] at position 0'],
        ['"unclosed', `Missing '"' to close [ "unclosed ] at position 0`],
        ['subtask of: nonsense', 'subtask of takes an issue id or a (query) [ nonsense ] at position 12'],
      ])('%s', async (query, message) => {
        const error = await ids(query).catch((e) => e);
        expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: `query: ${message}` });
      });
    });
  },
);
