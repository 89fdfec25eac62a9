import { COMMAND_KEYWORDS, COMMANDS, type CommandKeyword } from './definitions.js';
import { PhraseIndex } from './phrase-index.js';
import type { Token } from './token.js';
import type { CommandVocabulary, VocabularyField } from './vocabulary.js';

export type FieldEntry = {
  field: VocabularyField;
  /** The field's values, its empty text, and for user fields `me`, logins and full names. */
  values: PhraseIndex<ValueTarget>;
};

/** A value of one field; `value` null empties the field. `user` marks logins of user fields. */
export type ValueTarget = { field: FieldEntry; value: string | null; display: string; user: boolean };

export type LinkTarget = { linkType: string; outward: boolean; phrase: string };

/** The vocabulary indexed for matching typed words, built once per vocabulary object. */
export type Lexicon = {
  vocab: CommandVocabulary;
  keywords: PhraseIndex<CommandKeyword>;
  links: PhraseIndex<LinkTarget>;
  fields: PhraseIndex<FieldEntry>;
  /** Values typed without a field name: no `me`, no full names, no empty text of multi-value fields. */
  bareValues: PhraseIndex<ValueTarget>;
  /** `me`, logins and full names, for `star`/`unstar`. */
  users: PhraseIndex<string>;
  tags: PhraseIndex<string>;
  /** Group names, for `visible to`. */
  groups: PhraseIndex<string>;
  /** Work type names, for `work`. */
  workTypes: PhraseIndex<string>;
  /** Lower-cased readable id → as the vocabulary spells it. */
  issueIds: Map<string, string>;
  /** The field `for` sets: the user field called Assignee, else the first single-value user field. */
  assignee: FieldEntry | undefined;
  maxWords: number;
};

const cache = new WeakMap<CommandVocabulary, Lexicon>();

/** The lexicon of a vocabulary; vocabularies are treated as immutable once used. */
export function lexiconOf(vocab: CommandVocabulary): Lexicon {
  let lexicon = cache.get(vocab);
  if (!lexicon) {
    lexicon = buildLexicon(vocab);
    cache.set(vocab, lexicon);
  }
  return lexicon;
}

function buildLexicon(vocab: CommandVocabulary): Lexicon {
  const keywords = new PhraseIndex<CommandKeyword>();
  for (const keyword of COMMAND_KEYWORDS) {
    for (const phrase of [keyword, ...COMMANDS[keyword].aliases]) keywords.add(phrase, keyword);
  }
  const links = new PhraseIndex<LinkTarget>();
  for (const type of vocab.linkTypes) {
    links.add(type.outwardName, { linkType: type.name, outward: true, phrase: type.outwardName });
    if (type.inwardName.toLowerCase() !== type.outwardName.toLowerCase()) {
      links.add(type.inwardName, { linkType: type.name, outward: false, phrase: type.inwardName });
    }
  }
  const fullNames = new Map(vocab.users.map((user) => [user.login, user.fullName]));
  const users = new PhraseIndex<string>();
  if (vocab.me) users.add('me', vocab.me);
  for (const user of vocab.users) {
    users.add(user.login, user.login);
    users.add(user.fullName, user.login);
  }
  const fields = new PhraseIndex<FieldEntry>();
  const bareValues = new PhraseIndex<ValueTarget>();
  const entries = vocab.fields.map((field) => {
    const entry = indexField(field, vocab, fullNames, bareValues);
    fields.add(field.name, entry);
    for (const alias of field.aliases ?? []) fields.add(alias, entry);
    return entry;
  });
  const tags = new PhraseIndex<string>();
  for (const tag of vocab.tags) tags.add(tag.name, tag.name);
  const groups = new PhraseIndex<string>();
  for (const group of vocab.groups) groups.add(group.name, group.name);
  const workTypes = new PhraseIndex<string>();
  for (const type of vocab.workTypes) workTypes.add(type.name, type.name);
  const userFields = entries.filter((entry) => entry.field.kind === 'user' && !entry.field.multi);
  const assignee = userFields.find((entry) => entry.field.name.toLowerCase() === 'assignee') ?? userFields[0];
  const maxWords = Math.max(
    ...[keywords, links, fields, bareValues, users, tags, groups, workTypes].map((index) => index.maxWords),
    ...entries.map((entry) => entry.values.maxWords),
  );
  const issueIds = new Map(vocab.issueIds.map((id) => [id.toLowerCase(), id]));
  return {
    vocab,
    keywords,
    links,
    fields,
    bareValues,
    users,
    tags,
    groups,
    workTypes,
    issueIds,
    assignee,
    maxWords,
  };
}

function indexField(
  field: VocabularyField,
  vocab: CommandVocabulary,
  fullNames: Map<string, string>,
  bareValues: PhraseIndex<ValueTarget>,
): FieldEntry {
  const entry: FieldEntry = { field, values: new PhraseIndex() };
  const add = (name: string, value: string | null, bare: boolean, user = false) => {
    const target: ValueTarget = { field: entry, value, display: value ?? name, user };
    entry.values.add(name, target);
    if (bare) bareValues.add(name, target);
  };
  if (field.canBeEmpty && field.emptyText && !field.multi) add(field.emptyText, null, true);
  if (field.kind !== 'user') {
    for (const value of field.values) add(value.name, value.name, true);
    return entry;
  }
  // A user field lists its assignable logins, or when it lists none, every user may be set.
  const logins =
    field.values.length > 0 ? field.values.map((value) => value.name) : vocab.users.map((u) => u.login);
  if (vocab.me && logins.includes(vocab.me)) add('me', vocab.me, false, true);
  for (const login of logins) {
    add(login, login, true, true);
    const fullName = fullNames.get(login);
    if (fullName) add(fullName, login, false, true);
  }
  return entry;
}

export type StartMatch =
  | { kind: 'keyword'; length: number; keyword: CommandKeyword }
  | { kind: 'link'; length: number; link: LinkTarget }
  | { kind: 'field'; length: number; field: FieldEntry }
  | { kind: 'value'; length: number; targets: ValueTarget[] };

/**
 * What a command starting at `pos` is: the longest phrase wins; on equal length a keyword beats
 * a link phrase, which beats a field name, which beats a value. `{…}` is never a keyword or link.
 * After `add`/`remove` keywords are not looked for.
 */
export function matchStart(
  lex: Lexicon,
  tokens: readonly Token[],
  keys: readonly string[],
  pos: number,
  withKeywords = true,
): StartMatch | undefined {
  const quoted = tokens[pos]?.kind === 'quoted';
  const keyword = quoted || !withKeywords ? undefined : lex.keywords.match(tokens, keys, pos);
  const link = quoted ? undefined : lex.links.match(tokens, keys, pos);
  const field = lex.fields.match(tokens, keys, pos);
  const value = lex.bareValues.match(tokens, keys, pos);
  const candidates: (StartMatch | undefined)[] = [
    keyword?.targets[0] && { kind: 'keyword', length: keyword.length, keyword: keyword.targets[0] },
    link?.targets[0] && { kind: 'link', length: link.length, link: link.targets[0] },
    field?.targets[0] && { kind: 'field', length: field.length, field: field.targets[0] },
    value && { kind: 'value', length: value.length, targets: value.targets },
  ];
  let best: StartMatch | undefined;
  for (const candidate of candidates) {
    if (candidate && (!best || candidate.length > best.length)) best = candidate;
  }
  return best;
}

const ISSUE_ID = /^[a-z][a-z0-9_]*-\d+$/;

/** Whether a token key is a readable issue id such as `prj-12` (keys are lower-cased). */
export function isIssueId(key: string | undefined): boolean {
  return key !== undefined && ISSUE_ID.test(key);
}
