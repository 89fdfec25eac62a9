import type { Dialect } from '../../orm/open-orm.js';
import type { Sql } from './readable-issues.js';
import { type Driver, type Leaf, leaf } from './search-plan.js';

/**
 * Full-text conditions over an issue's summary, description and comments (public, not deleted),
 * answered by each database's own index:
 *  - SQLite: the FTS5 table `issue_fts` (tokenizer `porter unicode61 remove_diacritics 2`:
 *    English word forms by the Porter stemmer, accents ignored), rowid = issue id, so its
 *    posting lists come in issue order and the first page stops early;
 *  - PostgreSQL: `issue_search.doc`, a `tsvector` of the `english` configuration (Snowball
 *    stemmer, English stop words dropped) with summary, description and comments weighted A, B, C,
 *    under a GIN index.
 * A term's words are the runs of letters and digits in it (other characters separate words);
 * `word*` matches words starting with `word`; a phrase (`"…"` or `{…}`) matches its words in
 * that order. A term without letters or digits matches every issue.
 */
export type TextColumn = 'summary' | 'description' | 'comments';
export type TextPart = { words: string[]; phrase: boolean; prefix: boolean };

const WEIGHT: Record<TextColumn, string> = { summary: 'A', description: 'B', comments: 'C' };

/** The words of a text term, or null when it has none. */
export function textPart(text: string, phrase: boolean): TextPart | null {
  const prefix = !phrase && /\*$/.test(text.trim());
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 20);
  return words.length === 0 ? null : { words, phrase: phrase || words.length > 1, prefix };
}

function fts5(part: TextPart): string {
  const quoted = `"${part.words.join(' ')}"`;
  return part.prefix ? `${quoted}*` : quoted;
}

function tsquery(part: TextPart, column?: TextColumn): string {
  const weight = column ? WEIGHT[column] : '';
  const word = (w: string, last: boolean) =>
    `${w}${part.prefix && last ? `:*${weight}` : weight ? `:${weight}` : ''}`;
  const words = part.words.map((w, i) => word(w, i === part.words.length - 1));
  return words.length === 1 ? (words[0] as string) : `(${words.join(' <-> ')})`;
}

/** All of `parts` (in `column`, else anywhere in the text) as one leaf with its index range. */
export function textLeaf(dialect: Dialect, parts: TextPart[], column?: TextColumn): Leaf {
  if (dialect === 'sqlite') {
    const expression = parts.map(fts5).join(' AND ');
    const match = column ? `{${column}} : (${expression})` : expression;
    const driver: Driver = {
      from: 'issue_fts d',
      id: 'd.rowid',
      where: { sql: 'd.issue_fts match ?', params: [match] },
      ordered: true,
    };
    // `+i.id`: a membership test of each row the chosen driver lists, never a seek per matching
    // document. SQLite otherwise turned the list around: for `project: S07 by: u12 genelox` it looked
    // up each of the word's 43,080 documents in the reporter's index instead of checking the
    // reporter's 5,000 issues against the list (45 → 27 ms at a million issues).
    return leaf(
      { sql: '+i.id in (select rowid from issue_fts where issue_fts match ?)', params: [match] },
      driver,
    );
  }
  const query = parts.map((p) => tsquery(p, column)).join(' & ');
  const single = parts.length === 1 && !column && !parts[0]?.phrase && !parts[0]?.prefix;
  const word = single ? parts[0]?.words[0] : undefined;
  const driver: Driver = {
    from: 'issue_search d',
    id: 'd.issue_id',
    where: { sql: "d.doc @@ to_tsquery('english', ?)", params: [query] },
    ordered: false,
    ...(word === undefined ? {} : { atLeast: (limit: number) => frequentWord(word, limit) }),
  };
  return leaf(
    {
      sql: "exists (select 1 from issue_search x where x.issue_id = i.id and x.doc @@ to_tsquery('english', ?))",
      params: [query],
    },
    driver,
  );
}

/**
 * PostgreSQL: whether the table's statistics say `word` is in at least four times `limit` documents
 * (its size for the planner is then `limit`, without counting). A GIN index cannot stop early:
 * counting even 2,000 documents of a word builds the bitmap of all of them (28 ms for a word in
 * 483,705 of a million issues, 3 ms by the statistics). The statistics (`analyze`, kept by the
 * search upkeep) list the 1,000 most frequent words with the share of documents holding each; a
 * word not listed, or listed below the mark, is counted.
 */
function frequentWord(word: string, limit: number): Sql {
  return {
    sql:
      'coalesce((select s.most_common_elem_freqs[array_position(s.most_common_elems::text::text[], w.lexeme)] ' +
      "from pg_stats s, (select (tsvector_to_array(to_tsvector('english', ?)))[1] as lexeme) w " +
      "where s.schemaname = current_schema() and s.tablename = 'issue_search' and s.attname = 'doc'), 0) * " +
      "(select greatest(c.reltuples, 0) from pg_class c where c.oid = 'issue_search'::regclass) >= ?",
    params: [word, 4 * limit],
  };
}
