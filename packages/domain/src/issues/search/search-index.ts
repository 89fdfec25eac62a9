import type { Em } from '../../orm/em.js';
import { runStatement } from '../../orm/statements.js';

/**
 * SQLite's full-text index (`issue_fts`, migration 0020) is near-real-time: a write only queues
 * the issue (`issue_fts_queue`, by triggers, a few µs), and an indexer re-indexes queued issues in
 * batches, each one write transaction: a process of its own beside a file database (the search
 * engine's, search-pool.ts), so the CPU of tokenizing is not paid by the request (an import of
 * issues with comments indexes each issue once, not once per comment). A change is searchable
 * by text once its batch commits (typically within 0.1 s). Without that process (an in-memory
 * database in tests), the queue is indexed before each search, on the search's own connection.
 */
export const INDEX_BATCH = 500;

/** The statements of one batch, in order (run inside one transaction). */
export const INDEX_BATCH_STATEMENTS = [
  'create temp table if not exists issue_fts_batch (id integer primary key)',
  'delete from issue_fts_batch',
  `insert into issue_fts_batch (id) select issue_id from issue_fts_queue order by issue_id limit ${INDEX_BATCH}`,
  'delete from issue_fts where rowid in (select id from issue_fts_batch)',
  'insert into issue_fts (rowid, summary, description, comments) select i.id, i.summary, i.description, ' +
    "coalesce((select group_concat(c.text, ' ') from issue_comments c where c.issue_id = i.id and c.deleted = 0 and c.permitted_group_id is null), '') " +
    'from issues i where i.id in (select id from issue_fts_batch)',
  'delete from issue_fts_queue where issue_id in (select id from issue_fts_batch)',
];

/** Indexes every queued issue on `em`'s connection (SQLite only). */
export async function indexQueuedIssues(em: Em): Promise<void> {
  for (;;) {
    const queued = await em.execute<{ n: number }[]>('select count(*) as n from issue_fts_queue');
    if (Number(queued[0]?.n ?? 0) === 0) return;
    await em.transactional(async (tem) => {
      for (const sql of INDEX_BATCH_STATEMENTS) await runStatement(tem as Em, sql);
    });
  }
}
