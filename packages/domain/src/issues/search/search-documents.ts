import type { Em } from '../../orm/em.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { runStatement } from '../../orm/statements.js';
import { searchDialect } from './search-engine.js';

/**
 * PostgreSQL's search documents (`issue_search`, migration 0025) written once per issue by a bulk
 * writer. Triggers keep the documents of every write; the statement triggers of inserted issues
 * and comments would give an imported issue a document and then a second version with its
 * comments' words (the document and its GIN entries written twice, a dead version left behind).
 * An import defers them for its transaction and then writes the documents of the issues it
 * touched in one statement, from the rows as they are (migration 0053). SQLite indexes from a
 * queue (search-index.ts) and needs neither.
 */
export async function deferSearchDocuments(tx: Em): Promise<void> {
  if (searchDialect(tx) !== 'postgresql') return;
  await runStatement(tx, "select set_config('trackline.search_docs', 'deferred', true)");
}

/** The documents of `issueIds`, as the triggers would leave them; call after deferring, before commit. */
export async function writeSearchDocuments(tx: Em, issueIds: readonly number[]): Promise<void> {
  if (searchDialect(tx) !== 'postgresql' || issueIds.length === 0) return;
  await runStatement(
    tx,
    'insert into issue_search (issue_id, doc) select i.id, ' +
      "setweight(to_tsvector('english', i.summary), 'A') || setweight(to_tsvector('english', i.description), 'B') || " +
      "setweight(to_tsvector('english', coalesce((select string_agg(c.text, ' ' order by c.id) from issue_comments c " +
      "where c.issue_id = i.id and not c.deleted and coalesce(c.permitted_group_id, 0) = 0), '')), 'C') " +
      `from issues i where i.id in (${placeholders(issueIds)}) ` +
      'on conflict (issue_id) do update set doc = excluded.doc',
    issueIds,
  );
}
