import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActor } from '../../auth/load-actor.js';
import { createOrm } from '../../model/create-orm.js';
import { User } from '../../model/user.entity.js';
import type { Em } from '../../orm/em.js';
import { migrate } from '../../orm/migrate.js';
import type { Orm } from '../../orm/open-orm.js';
import { TEXT_INDEX_SCHEMA, textIndexFile } from '../../orm/text-index-file.js';
import { createProject } from '../../projects/projects.js';
import { seed } from '../../seed/seed.js';
import { createIssue } from '../create-issue.js';
import { INDEXER_STATEMENTS, indexQueuedIssues } from './search-index.js';
import { searchIssueIds } from './search-issues.js';

// SQLite's text index in a file of its own (orm/text-index-file.ts, migration 0052): a file
// database of its own here (the suite's are in memory or on PostgreSQL).
let dir: string;
let file: string;
let orm: Orm;

const open = async () => {
  const opened = await createOrm({ kind: 'sqlite', file });
  await migrate(opened);
  return opened;
};
const rows = async <T = unknown>(sql: string, params: unknown[] = [], on = orm): Promise<T[]> =>
  on.em.getConnection().execute<T[]>(sql, params);
const root = async () => {
  const em = orm.em.fork() as Em;
  return loadActor(em, await em.findOneOrFail(User, { loginKey: 'root' }));
};
const matching = async (word: string) =>
  (await rows<{ id: number }>('select rowid as id from issue_fts where issue_fts match ?', [word])).map(
    (r) => r.id,
  );
const queued = async () =>
  Number((await rows<{ n: number }>('select count(*) as n from issue_fts_queue'))[0]?.n);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trackline-text-index-'));
  file = join(dir, 'main.sqlite');
  orm = await open();
  await seed(orm, { adminPassword: 'root-password' });
  await createProject(orm.em.fork() as Em, await root(), { shortName: 'TXT', name: 'Text' });
});
afterAll(async () => {
  await orm.close(true);
  rmSync(dir, { recursive: true, force: true });
});

describe('the text index file', () => {
  it('holds the words, beside the main file, and a text search finds them through it', async () => {
    await createIssue(orm.em.fork() as Em, await root(), { project: 'TXT', summary: 'quokka on the ferry' });
    expect(await searchIssueIds(orm.em.fork() as Em, await root(), 'quokka')).toEqual(['TXT-1']);
    expect(existsSync(textIndexFile(file))).toBe(true);
    expect(
      await rows("select name from main.sqlite_master where type = 'table' and name like 'issue_fts%'"),
    ).toEqual([{ name: 'issue_fts_queue' }, { name: 'issue_fts_state' }]);
    expect(await rows("select name from fts.sqlite_master where name = 'issue_fts'")).toEqual([
      { name: 'issue_fts' },
    ]);
  });

  it('lets the main file be written while a batch is being indexed', async () => {
    const writer = await open();
    try {
      await rows('update issues set summary = ? where number_in_project = 1', ['wombat on the ferry']);
      // The indexer's first transaction, left open: it has written the index's file only.
      await rows('begin');
      for (const sql of INDEXER_STATEMENTS.index) await rows(sql);
      // Another connection that does not wait at all still writes the main file.
      await rows('pragma busy_timeout = 0', [], writer);
      await rows(
        'update issues set description = ? where number_in_project = 1',
        ['written meanwhile'],
        writer,
      );
      await rows('commit');
      for (const sql of INDEXER_STATEMENTS.dequeue) await rows(sql);
    } finally {
      await writer.close(true);
    }
    expect(await matching('wombat')).toHaveLength(1);
  });

  it('keeps queued what was written after its batch was read, and indexes it with the next batch', async () => {
    await indexQueuedIssues(orm.em.fork() as Em);
    await rows('update issues set summary = ? where number_in_project = 1', ['numbat on the ferry']);
    await rows('begin');
    for (const sql of INDEXER_STATEMENTS.index) await rows(sql);
    await rows('commit');
    // Written between the batch's two transactions: a later entry of the queue.
    await rows('update issues set summary = ? where number_in_project = 1', ['dingo on the ferry']);
    for (const sql of INDEXER_STATEMENTS.dequeue) await rows(sql);
    expect(await queued()).toBe(1);
    expect(await matching('numbat')).toHaveLength(1);
    expect(await matching('dingo')).toEqual([]);
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await queued()).toBe(0);
    expect(await matching('dingo')).toHaveLength(1);
    expect(await matching('numbat')).toEqual([]);
  });

  it('a deleted issue leaves the index with its batch', async () => {
    await createIssue(orm.em.fork() as Em, await root(), {
      project: 'TXT',
      summary: 'platypus on the ferry',
    });
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await matching('platypus')).toHaveLength(1);
    await rows('delete from issues where number_in_project = 2');
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await matching('platypus')).toEqual([]);
  });

  it("is kept by a starting process while another's batch is between its two transactions", async () => {
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await matching('dingo')).toHaveLength(1);
    // The other process's batch of one write (the words unchanged): the index file records its
    // entry first, the main file dequeues it 300 ms later.
    await rows('update issues set summary = summary where number_in_project = 1');
    const [entry] = await rows<{ seq: number }>('select max(seq) as seq from issue_fts_queue');
    expect(entry?.seq).toBeGreaterThan(0);
    await rows(`update ${TEXT_INDEX_SCHEMA}.issue_fts_state set through = ?`, [entry?.seq]);
    const secondHalf = new Promise<void>((resolve, reject) =>
      setTimeout(async () => {
        try {
          await rows('delete from issue_fts_queue where seq <= ?', [entry?.seq]);
          await rows('update main.issue_fts_state set through = ?', [entry?.seq]);
          resolve();
        } catch (error) {
          reject(error);
        }
      }, 300),
    );
    const starting = await open();
    await secondHalf;
    await starting.close(true);
    // Not taken for another file's index: nothing queued again, the words still there.
    expect(await queued()).toBe(0);
    expect(await matching('dingo')).toHaveLength(1);
  });

  it('is kept after a crash between a batch’s two transactions: the batch is indexed again, nothing rebuilt', async () => {
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await matching('dingo')).toHaveLength(1);
    // A batch of one write whose index transaction committed and whose dequeue never did (kill -9).
    await rows('update issues set summary = summary where number_in_project = 1');
    const [entry] = await rows<{ seq: number }>('select max(seq) as seq from issue_fts_queue');
    await rows(`update ${TEXT_INDEX_SCHEMA}.issue_fts_state set through = ?`, [entry?.seq]);
    await orm.close(true);
    orm = await open();
    // The index as it was (a rebuild empties it and queues every issue), the batch still queued.
    expect(await matching('dingo')).toHaveLength(1);
    expect(await queued()).toBe(1);
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await queued()).toBe(0);
    expect(await matching('dingo')).toHaveLength(1);
  });

  it("is rebuilt when it is not the main file's own state: a backup of the main file restored beside it", async () => {
    await indexQueuedIssues(orm.em.fork() as Em);
    const backup = join(dir, 'backup.sqlite');
    await rows(`vacuum into '${backup}'`);
    // Later than the backup: a word the restored issues never had.
    await rows('update issues set summary = ? where number_in_project = 1', ['bilby on the ferry']);
    await indexQueuedIssues(orm.em.fork() as Em);
    expect(await matching('bilby')).toHaveLength(1);
    await orm.close(true);
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    rmSync(file);
    renameSync(backup, file);
    orm = await open();
    // Nothing answers from the newer words; the restored ones come back as the indexer reaches them.
    expect(await matching('bilby')).toEqual([]);
    expect(await searchIssueIds(orm.em.fork() as Em, await root(), 'bilby')).toEqual([]);
    expect(await searchIssueIds(orm.em.fork() as Em, await root(), 'dingo')).toEqual(['TXT-1']);
    // Its own state again: a restart keeps the index as it is.
    await orm.close(true);
    orm = await open();
    expect(await queued()).toBe(0);
    expect(await matching('dingo')).toHaveLength(1);
  });

  it('is rebuilt from the main file when its file is lost', async () => {
    await orm.close(true);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${textIndexFile(file)}${suffix}`, { force: true });
    orm = await open();
    expect(await queued()).toBe(1);
    expect(await matching('dingo')).toEqual([]);
    expect(await searchIssueIds(orm.em.fork() as Em, await root(), 'dingo')).toEqual(['TXT-1']);
  });
});
