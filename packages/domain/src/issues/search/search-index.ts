import type { Em } from '../../orm/em.js';
import { runStatement } from '../../orm/statements.js';
import { inTransaction } from '../../orm/transaction.js';

/**
 * SQLite's full-text index (`issue_fts`, in the file of its own that every connection attaches:
 * orm/text-index-file.ts) is near-real-time: a write only queues the issue (`issue_fts_queue`, a
 * log in write order, by triggers, a few µs), and an indexer re-indexes queued issues in batches:
 * a process of its own beside a file database (the search engine's, search-pool.ts), so the CPU
 * of tokenizing is not paid by the request (an import of issues with comments indexes each issue
 * once, not once per comment). A batch is two transactions:
 *   1. on the index's file, the words of the batch's issues as the main file has them now (it
 *      only reads the main file, so the server's writers never wait for the tokenizing);
 *   2. on the main file, a short one that dequeues the batch's entries, up to its last `seq`.
 * A write made between the two has a later entry, which stays and is indexed by a later batch.
 * An indexer that dies between them indexes the batch again when it is restarted (the same
 * words); a server that stops there finds the two files' records apart at its next start and
 * rebuilds the index (orm/migrate.ts). A change is searchable by text
 * once its batch commits (typically within 0.1 s). Without that process (an in-memory database in
 * tests), the queue is indexed before each search, on the search's own connection.
 */
export const INDEX_BATCH_ENTRIES = 1500;

/**
 * The SQL of one batch, as the indexer process runs it: `index` in one transaction, then `dequeue`
 * in another. The batch's last `seq` is kept in a temporary table of the connection between the
 * two, so `dequeue` removes exactly the entries `index` read; each transaction records it as the
 * last entry the index holds (`issue_fts_state`, one row on each file: migration 0052), and the two
 * records agree whenever the index file is this database's own state (orm/migrate.ts checks).
 */
export type IndexerStatements = { queued: string; index: string[]; dequeue: string[] };

const BATCH_END = '(select last from issue_fts_batch_end)';
/** Records the batch's end in a file's state row (nothing when the queue was empty after all). */
const recordEnd = (schema: 'main' | 'fts') =>
  `update ${schema}.issue_fts_state set through = ${BATCH_END} where ${BATCH_END} is not null`;

export const INDEXER_STATEMENTS: IndexerStatements = {
  /** Whether a batch is waiting (one row, `queued` 0 or 1). */
  queued: 'select exists (select 1 from issue_fts_queue) as queued',
  index: [
    'create temp table if not exists issue_fts_batch (id integer primary key)',
    'create temp table if not exists issue_fts_batch_end (last integer)',
    'delete from issue_fts_batch_end',
    'insert into issue_fts_batch_end (last) select coalesce((select seq from issue_fts_queue order by seq limit 1 offset ' +
      `${INDEX_BATCH_ENTRIES - 1}), (select max(seq) from issue_fts_queue))`,
    'delete from issue_fts_batch',
    `insert or ignore into issue_fts_batch (id) select issue_id from issue_fts_queue where seq <= ${BATCH_END}`,
    'delete from issue_fts where rowid in (select id from issue_fts_batch)',
    'insert into issue_fts (rowid, summary, description, comments) select i.id, i.summary, i.description, ' +
      "coalesce((select group_concat(c.text, ' ') from issue_comments c where c.issue_id = i.id and c.deleted = 0 and c.permitted_group_id is null), '') " +
      'from issues i where i.id in (select id from issue_fts_batch)',
    recordEnd('fts'),
  ],
  dequeue: [`delete from issue_fts_queue where seq <= ${BATCH_END}`, recordEnd('main')],
};

/**
 * Read-your-writes of text: the last entry queued when a search begins (null: none waits), and
 * the last entry the index holds (its own file's record, written with the batch's words). A search
 * with words waits until the second reaches the first (search-engine.ts, `waitForText`), so it
 * sees every write acknowledged before it began.
 */
export const TEXT_QUEUE_LAST = 'select max(seq) as last from issue_fts_queue';
export const TEXT_INDEX_THROUGH = `select through as through from fts.issue_fts_state`;

/** Indexes every queued issue on `em`'s connection (SQLite only). */
export async function indexQueuedIssues(em: Em): Promise<void> {
  for (;;) {
    const [row] = await em.execute<{ queued: number }[]>(INDEXER_STATEMENTS.queued);
    if (Number(row?.queued ?? 0) === 0) return;
    await inTransaction(em, async (tem) => {
      for (const sql of [...INDEXER_STATEMENTS.index, ...INDEXER_STATEMENTS.dequeue])
        await runStatement(tem as Em, sql);
    });
  }
}
