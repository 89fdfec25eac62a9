import type { Dialect } from '../../orm/open-orm.js';
import type { Sql } from './readable-issues.js';
import { and, type Condition, type Driver, type Leaf, leaf } from './search-plan.js';

/**
 * Full-text conditions over an issue's summary, description and comments (public, not deleted),
 * answered by each database's own index:
 *  - SQLite: the FTS5 table `issue_fts` (tokenizer `porter unicode61 remove_diacritics 2`:
 *    English word forms by the Porter stemmer, accents ignored), rowid = issue id, so its
 *    posting lists come in issue order and the first page stops early;
 *  - PostgreSQL: `issue_search.doc`, a `tsvector` of the `english` configuration (Snowball
 *    stemmer, English stop words dropped) with summary, description and comments weighted A, B, C,
 *    under a GIN index.
 * A term's words are the runs of letters and digits in it (other characters separate words); a
 * phrase (`"…"` or `{…}`) matches its words in that order. A term without letters or digits
 * matches every issue.
 *
 * Wildcards (the original's: `*` stands for any letters and digits within one word), the same on
 * both databases:
 *  - `word*` (`*` only at the end): words starting with it, by the index's own prefix search on
 *    the word's stem (`memory*` finds "memory" and "memories"); a prefix the English configuration
 *    drops as a stop word is taken as written on PostgreSQL (`a*` found nothing there);
 *  - `a*b*`, `te*t` (`*` inside a word): an indexed word form matching the pattern (`te*t` finds
 *    "test" and "tests", whose form is "test"), looked up among the index's words that start with
 *    the letters before the first `*` (SQLite: the FTS5 vocabulary, `issue_fts_words`; PostgreSQL:
 *    the documents holding such a word, by the GIN index, then their words). Such a word is matched
 *    on its own, not as part of a phrase;
 *  - a `*` at the start of a word is ignored (`*ack` is `ack`): no index finds words by their end;
 *  - inside quotes or braces `*` is no wildcard but a separator, like other punctuation.
 */
export type TextColumn = 'summary' | 'description' | 'comments';
export type TextWord = { text: string; prefix: boolean };
export type TextPart = { words: TextWord[]; phrase: boolean; patterns: string[] };

const WEIGHT: Record<TextColumn, string> = { summary: 'A', description: 'B', comments: 'C' };
/** Words a term contributes at most. */
const MAX_WORDS = 20;

/** The words and wildcard patterns of a text term, or null when it has none. */
export function textPart(text: string, phrase: boolean): TextPart | null {
  const lower = text.toLowerCase();
  if (phrase) {
    const words = (lower.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
    return words.length === 0
      ? null
      : { words: words.map((w) => ({ text: w, prefix: false })), phrase, patterns: [] };
  }
  const words: TextWord[] = [];
  const patterns: string[] = [];
  for (const token of (lower.match(/[\p{L}\p{N}*]+/gu) ?? []).slice(0, MAX_WORDS)) {
    const word = token.replace(/^\*+/, '').replace(/\*+/g, '*');
    if (!/[\p{L}\p{N}]/u.test(word)) continue;
    const inner = word.replace(/\*+$/, '');
    if (!inner.includes('*')) words.push({ text: inner, prefix: inner !== word });
    else patterns.push(word);
  }
  if (words.length === 0 && patterns.length === 0) return null;
  // `foo-bar` is a phrase; with a pattern among its words, every word is matched on its own.
  return { words, phrase: words.length > 1 && patterns.length === 0, patterns };
}

/** All of `parts` (in `column`, else anywhere in the text): one leaf with its index range, and one per pattern. */
export function textLeaf(dialect: Dialect, parts: TextPart[], column?: TextColumn): Condition {
  const worded = parts.filter((p) => p.words.length > 0);
  const patterns = parts.flatMap((p) => p.patterns).map((p) => patternLeaf(dialect, p, column));
  if (worded.length === 0) return and(patterns);
  return and([dialect === 'sqlite' ? sqliteWords(worded, column) : pgWords(worded, column), ...patterns]);
}

function fts5(part: TextPart): string {
  // `"a" + "b"*`: a phrase of its words, each taken as a prefix where it ends with `*`.
  return part.words.map((w) => `"${w.text}"${w.prefix ? '*' : ''}`).join(' + ');
}

function sqliteWords(parts: TextPart[], column?: TextColumn): Leaf {
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

/**
 * A word as a `tsquery` expression. A prefix is the English form's (`memory:*` is `'memori':*`);
 * when the English configuration drops the word as a stop word (`a`, `the`), the prefix as written
 * (the `simple` configuration), as SQLite, which has no stop words, finds it.
 */
function tsWord(word: TextWord, column?: TextColumn): Sql {
  const weight = column ? WEIGHT[column] : '';
  if (!word.prefix)
    return { sql: "to_tsquery('english', ?)", params: [weight ? `${word.text}:${weight}` : word.text] };
  const query = `${word.text}:*${weight}`;
  return {
    sql: "(case when numnode(to_tsquery('english', ?)) = 0 then to_tsquery('simple', ?) else to_tsquery('english', ?) end)",
    params: [query, query, query],
  };
}

/** A part's words as one `tsquery`: in that order for a phrase, else all of them. */
function tsPart(part: TextPart, column?: TextColumn): Sql {
  const words = part.words.map((w) => tsWord(w, column));
  return words.reduce((a, b) => ({
    sql: part.phrase ? `tsquery_phrase(${a.sql}, ${b.sql})` : `(${a.sql} && ${b.sql})`,
    params: [...a.params, ...b.params],
  }));
}

function pgWords(parts: TextPart[], column?: TextColumn): Leaf {
  const query = parts
    .map((p) => tsPart(p, column))
    .reduce((a, b) => ({ sql: `(${a.sql} && ${b.sql})`, params: [...a.params, ...b.params] }));
  const only = parts.length === 1 && !column && !parts[0]?.phrase ? parts[0]?.words[0] : undefined;
  const word = only && !only.prefix ? only.text : undefined;
  const driver: Driver = {
    from: 'issue_search d',
    id: 'd.issue_id',
    where: { sql: `d.doc @@ ${query.sql}`, params: query.params },
    ordered: false,
    ...(word === undefined ? {} : { atLeast: (limit: number) => frequentWord(word, limit) }),
  };
  return leaf(
    {
      sql: `exists (select 1 from issue_search x where x.issue_id = i.id and x.doc @@ ${query.sql})`,
      params: query.params,
    },
    driver,
  );
}

/**
 * A word with a `*` inside (`a*b*`): an issue whose index holds a word form matching it, among the
 * forms that start with the letters before its first `*`.
 */
function patternLeaf(dialect: Dialect, pattern: string, column?: TextColumn): Leaf {
  const start = pattern.slice(0, pattern.indexOf('*'));
  if (dialect === 'sqlite') {
    // The vocabulary holds the forms as the tokenizer wrote them: without accents.
    const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
    const from = plain(start);
    const where = ['w.term >= ?', 'w.term < ?', 'w.term glob ?', ...(column ? ['w.col = ?'] : [])];
    return leaf({
      sql: `+i.id in (select w.doc from issue_fts_words w where ${where.join(' and ')})`,
      // Every form starting with `from` sorts before `from` followed by the last code point.
      params: [from, `${from}\u{10FFFF}`, plain(pattern), ...(column ? [column] : [])],
    });
  }
  // The document's text form lists each word quoted, then its positions with their weights
  // (`'deadlock':3A,7`): a regular expression over it finds a matching word four times faster than
  // unnesting the document (286 against 1,231 ms for `k*l*x` over 20,000 documents).
  const weight = column ? WEIGHT[column] : '';
  const word = `'${pattern.replace(/\*/g, "[^']*")}'${weight ? `:[0-9A-D,]*${weight}` : ''}`;
  return leaf({
    sql: "exists (select 1 from issue_search x where x.issue_id = i.id and x.doc @@ to_tsquery('simple', ?) and x.doc::text ~ ?)",
    params: [`${start}:*${weight}`, word],
  });
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
