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
import { addUserToGroup, createGroup } from '../../groups/groups.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject, deleteProject } from '../../projects/projects.js';
import { applyCommand } from '../apply-command.js';
import { createIssue } from '../create-issue.js';
import { listIssueLinks } from '../issue-links.js';
import { type SearchEngineHandle, startSearchEngine } from './search-engine.js';
import { indexQueuedIssues } from './search-index.js';
import { countIssues, searchIssueIds, searchIssues } from './search-issues.js';

/**
 * What search reads of other rows, for the caller (issue 37): a link counts only when the caller
 * reads the issue at its other end, and an issue of a project in the trash is read by nobody, root
 * included, as the issue's own link list shows (item 1); `sort by: comments` counts the comments
 * the caller can see (item 7).
 *
 * Data: project PA, Reporter `rep` there (not in group `secret`), Developer `insider` in `secret`.
 *   PA-1 relates to PA-2        PA-2 "hidden plan", restricted to `secret` (rep cannot read it)
 *   PA-3 subtask of PA-2        PA-4 depends on PA-2
 *   PA-5 relates to PA-7        PA-6 relates to TB-1, TB in the trash
 *   PA-5 has two comments restricted to `secret`, PA-7 one comment for everyone
 * Every answer is asked of the request's connection and of the search engine (SQLite: worker
 * processes on a file; PostgreSQL: the search sessions), pages and counts alike.
 */
describe.each(['the request connection', 'the search engine'])(
  'search reads what the caller reads, on %s',
  (runner) => {
    let orm: Orm;
    let engine: SearchEngineHandle | undefined;
    let removeFiles = () => {};
    let root: Actor;
    let rep: Actor;
    let insider: Actor;
    const ids = async (query: string, actor: Actor) =>
      (await searchIssues(fork(orm), actor, query, { max: 100 })).map((i) => i.id);
    const count = (query: string, actor: Actor) => countIssues(fork(orm), actor, query);

    beforeAll(async () => {
      let file: string | undefined;
      if (runner === 'the search engine') ({ orm, file, remove: removeFiles } = await createTestOrmOnDisk());
      else orm = await createTestOrm();
      root = await actorFor(orm, 'root');
      for (const p of ['PA', 'TB'])
        await createProject(fork(orm), root, { shortName: p, name: `Project ${p}` });
      await userWithRole(orm, 'rep', 'Reporter', 'PA');
      await userWithRole(orm, 'insider', 'Developer', 'PA');
      await createGroup(fork(orm), root, 'secret');
      await addUserToGroup(fork(orm), root, 'insider', 'secret');
      for (const n of [1, 2, 3, 4, 5, 6, 7])
        await createIssue(fork(orm), root, {
          project: 'PA',
          summary: n === 2 ? 'hidden plan' : `issue ${n}`,
          ...(n === 2 ? { permittedGroup: 'secret' } : {}),
        });
      await createIssue(fork(orm), root, { project: 'TB', summary: 'soon in the trash' });
      await applyCommand(fork(orm), root, ['PA-1'], [op.link('Relates', 'PA-2')]);
      await applyCommand(fork(orm), root, ['PA-3'], [op.link('Subtask', 'PA-2', false)]);
      await applyCommand(fork(orm), root, ['PA-4'], [op.link('Depend', 'PA-2')]);
      await applyCommand(fork(orm), root, ['PA-5'], [op.link('Relates', 'PA-7')]);
      await applyCommand(fork(orm), root, ['PA-6'], [op.link('Relates', 'TB-1')]);
      await deleteProject(fork(orm), root, 'TB');
      for (const text of ['first secret word', 'second secret word'])
        await applyCommand(fork(orm), root, ['PA-5'], [], text, undefined, { commentGroup: 'secret' });
      await applyCommand(fork(orm), root, ['PA-7'], [], 'a word for everyone');
      // Actors after the trash changed (the trash is part of what an actor reads).
      root = await actorFor(orm, 'root');
      rep = await actorFor(orm, 'rep');
      insider = await actorFor(orm, 'insider');
      if (runner === 'the search engine') {
        if (file) await indexQueuedIssues(fork(orm));
        engine = await startSearchEngine(orm, { file, workers: 2 });
      }
    }, 120_000);
    afterAll(async () => {
      await engine?.stop();
      await orm.close(true);
      removeFiles();
    });

    it('an issue id the caller cannot read answers like one that does not exist (no existence oracle)', async () => {
      for (const query of ['links: PA-2', 'relates to: PA-2', 'subtask of: PA-2', 'depends on: PA-2']) {
        expect(await ids(query, rep)).toEqual([]);
        expect(await count(query, rep)).toBe(0);
      }
      expect(await ids('links: PA-99', rep)).toEqual([]);
      expect(await count('links: PA-99', rep)).toBe(0);
      // Its readers find the links.
      expect(await ids('links: PA-2', insider)).toEqual(['PA-4', 'PA-3', 'PA-1']);
      expect(await ids('relates to: PA-2', insider)).toEqual(['PA-1']);
      expect(await count('links: PA-2', root)).toBe(3);
    });

    it('has: counts only links whose other end the caller reads', async () => {
      expect(await ids('has: links', rep)).toEqual(['PA-7', 'PA-5']);
      expect(await count('has: links', rep)).toBe(2);
      expect(await ids('has: {subtask of}', rep)).toEqual([]);
      expect(await ids('has: {depends on}', rep)).toEqual([]);
      expect(await ids('has: {relates to}', rep)).toEqual(['PA-7', 'PA-5']);
      expect(await ids('has: -links', rep)).toEqual(['PA-6', 'PA-4', 'PA-3', 'PA-1']);
      expect(await ids('has: {subtask of}', insider)).toEqual(['PA-3']);
      expect(await ids('has: {depends on}', insider)).toEqual(['PA-4']);
      expect(await ids('has: {parent for}', insider)).toEqual(['PA-2']);
    });

    it('a link to an issue in the trash counts for nobody, root included, as the link list shows', async () => {
      expect(await ids('has: links', root)).toEqual(['PA-7', 'PA-5', 'PA-4', 'PA-3', 'PA-2', 'PA-1']);
      expect(await count('has: links', root)).toBe(6);
      expect(await ids('has: {relates to}', root)).toEqual(['PA-7', 'PA-5', 'PA-2', 'PA-1']);
      expect(await ids('has: -links', root)).toEqual(['PA-6']);
      expect(await listIssueLinks(fork(orm), root, 'PA-6')).toEqual([]);
    });

    it('the (query) form reads the other end the same way', async () => {
      expect(await ids('links: (hidden)', rep)).toEqual([]);
      expect(await ids('links: (hidden)', insider)).toEqual(['PA-4', 'PA-3', 'PA-1']);
      expect(await ids('relates to: (project: PA)', rep)).toEqual(['PA-7', 'PA-5']);
      expect(await ids('relates to: (project: PA)', root)).toEqual(['PA-7', 'PA-5', 'PA-2', 'PA-1']);
      // Nested: issues that depend on an issue a subtask of which the caller reads.
      expect(await ids('depends on: (parent for: (project: PA))', insider)).toEqual(['PA-4']);
      expect(await ids('depends on: (parent for: (project: PA))', rep)).toEqual([]);
    });

    it('the command context of a query (the assist’s query=) reads the other end too', async () => {
      expect(await searchIssueIds(fork(orm), rep, 'links: PA-2', { max: 100 })).toEqual([]);
      expect(await searchIssueIds(fork(orm), insider, 'relates to: (hidden)', { max: 100 })).toEqual([
        'PA-1',
      ]);
    });

    it('sort by: comments counts the comments the caller can see, in both directions', async () => {
      // rep sees PA-7's comment only: PA-5's two restricted ones count for `secret`'s members.
      expect(await ids('project: PA sort by: comments desc', rep)).toEqual([
        'PA-7',
        'PA-6',
        'PA-5',
        'PA-4',
        'PA-3',
        'PA-1',
      ]);
      expect(await ids('project: PA sort by: comments asc', rep)).toEqual([
        'PA-6',
        'PA-5',
        'PA-4',
        'PA-3',
        'PA-1',
        'PA-7',
      ]);
      expect(await ids('project: PA sort by: comments desc', insider)).toEqual([
        'PA-5',
        'PA-7',
        'PA-6',
        'PA-4',
        'PA-3',
        'PA-2',
        'PA-1',
      ]);
      expect(await ids('project: PA sort by: comments asc', insider)).toEqual([
        'PA-6',
        'PA-4',
        'PA-3',
        'PA-2',
        'PA-1',
        'PA-7',
        'PA-5',
      ]);
    });
  },
);
