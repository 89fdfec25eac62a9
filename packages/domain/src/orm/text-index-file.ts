/**
 * SQLite's full-text index (`issue_fts`, FTS5) lives in a database file of its own beside the
 * main one (`<file>-fts`), attached to every connection as the schema `fts` (migration 0052).
 * SQLite has one writer per file: in the main file, the indexer held the write lock while it
 * tokenized a batch of issues (tens of milliseconds), and every writer of the server waited for
 * it, an import request about 2.5 ms each time. Now the indexer writes the index's file while
 * the server writes the main one; it takes the main file's lock only to dequeue a batch it has
 * indexed (search-index.ts). Unqualified names resolve to the attached schema, so statements
 * say `issue_fts` as before. The index holds nothing that the main file does not: an index file
 * that is lost, or is not this database's own state, is rebuilt from it (`checkTextIndex` in
 * migrate.ts).
 */
export const TEXT_INDEX_SCHEMA = 'fts';

/** The index's file for a main database file; an in-memory database gets an in-memory index. */
export const textIndexFile = (file: string): string => (file === ':memory:' ? ':memory:' : `${file}-fts`);

/** The FTS5 table (contentless: the words only, rowid = issue id). */
export const CREATE_TEXT_INDEX = `create virtual table ${TEXT_INDEX_SCHEMA}.issue_fts using fts5(summary, description, comments, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`;

/** The last queue entry the index holds, as the index's file records it (the main file records its own). */
export const CREATE_TEXT_INDEX_STATE = `create table ${TEXT_INDEX_SCHEMA}.issue_fts_state (id integer not null primary key check (id = 1), through integer not null)`;

/**
 * The index's words, one row per occurrence (`term`, `doc` = issue id, `col`, `offset`): an FTS5
 * vocabulary table of the connection's own (`temp`), read by the search's wildcard patterns
 * (`a*b*`, search-text.ts) through a range of terms. It names the index by name, so it survives the
 * index being rebuilt, and it writes nothing: a read-only connection creates it too. A later
 * `pragma temp_store` would drop it (SQLite drops temporary tables then): that pragma comes first.
 */
export const CREATE_TEXT_INDEX_WORDS = `create virtual table if not exists temp.issue_fts_words using fts5vocab(${TEXT_INDEX_SCHEMA}, issue_fts, instance)`;

/**
 * The statements that attach the index's file to a connection opened on `file` (outside any
 * transaction): journal mode and durability are per schema in SQLite, so they are set for it too.
 */
export function attachTextIndexStatements(file: string): { sql: string; params: string[] }[] {
  const attach = { sql: `attach database ? as ${TEXT_INDEX_SCHEMA}`, params: [textIndexFile(file)] };
  const words = { sql: CREATE_TEXT_INDEX_WORDS, params: [] };
  if (file === ':memory:') return [attach, words];
  return [
    attach,
    { sql: `pragma ${TEXT_INDEX_SCHEMA}.journal_mode = wal`, params: [] },
    { sql: `pragma ${TEXT_INDEX_SCHEMA}.synchronous = normal`, params: [] },
    words,
  ];
}
