import {
  COMMAND_KEYWORDS,
  COMMANDS,
  type CommandKeyword,
  keywordCapability,
  keywordOp,
} from './definitions.js';
import type { FieldEntry, Lexicon } from './lexicon.js';
import { COMMAND_OP_REQUIREMENTS } from './requirements.js';
import { resolveBareValue } from './resolve.js';
import { normalizePhrase } from './token.js';

/** Something the suggester may offer, with its lower-cased text computed once. */
export type Candidate = {
  option: string;
  lower: string;
  /** Also matched by prefix: a user's full name. */
  alt?: string;
  description: string;
  descriptionHtml: string;
  /** Must be typed in braces to mean itself (a value spelled like a keyword). */
  quote: boolean;
  /** A login offered as a value without its field name. */
  user: boolean;
};

/** The candidates the actor may apply, per kind, in the order they are offered. */
export type CandidateSets = {
  fields: Candidate[];
  multiFields: Candidate[];
  keywords: Candidate[];
  links: Candidate[];
  bareValues: Candidate[];
  multiValues: Candidate[];
  users: Candidate[];
  tags: Candidate[];
  groups: Candidate[];
  workTypes: Candidate[];
  issueIds: Candidate[];
  /** Values of one field (empty without the update permission). */
  valuesOf(entry: FieldEntry): Candidate[];
};

const cache = new WeakMap<Lexicon, CandidateSets>();

export function candidatesOf(lex: Lexicon): CandidateSets {
  let sets = cache.get(lex);
  if (!sets) {
    sets = buildCandidates(lex);
    cache.set(lex, sets);
  }
  return sets;
}

function candidate(
  option: string,
  description: string,
  bold = false,
  extra: Partial<Candidate> = {},
): Candidate {
  const html = escapeHtml(description);
  const descriptionHtml = bold ? `<b>${html}</b>` : html;
  return {
    option,
    lower: option.toLowerCase(),
    description,
    descriptionHtml,
    quote: false,
    user: false,
    ...extra,
  };
}

function buildCandidates(lex: Lexicon): CandidateSets {
  const { vocab } = lex;
  const { can } = vocab;
  const typeable = (name: string) => !/[{}]/.test(name) && normalizePhrase(name) !== '';
  const fieldEntries = vocab.fields.filter((field) => can.update && typeable(field.name));
  const fields = fieldEntries.map((f) => candidate(f.name, f.multi ? 'Field, several values' : 'Field'));
  const multiFields = fields.filter((_, i) => fieldEntries[i]?.multi);
  // Aliases follow the names, described by the field they stand for.
  for (const f of fieldEntries) {
    for (const alias of (f.aliases ?? []).filter(typeable)) {
      const aliasCandidate = candidate(alias, `${f.name} (alias)`);
      fields.push(aliasCandidate);
      if (f.multi) multiFields.push(aliasCandidate);
    }
  }
  const hasMulti = fieldEntries.some((field) => field.multi);
  const links = !can.link
    ? []
    : vocab.linkTypes.flatMap((type) => {
        const outward = candidate(type.outwardName, `Link (${type.name})`);
        const same = type.inwardName.toLowerCase() === type.outwardName.toLowerCase();
        return same ? [outward] : [outward, candidate(type.inwardName, `Link (${type.name}, inward)`)];
      });
  const allowed = (keyword: CommandKeyword) => {
    const capability = keywordCapability(keyword);
    if (keyword === 'for' && !lex.assignee) return false;
    const op = keywordOp(keyword);
    if (op && COMMAND_OP_REQUIREMENTS[op].timeTracking && !vocab.timeTracking) return false;
    return capability ? can[capability] : (can.update && hasMulti) || links.length > 0;
  };
  // Keywords first, then their aliases.
  const offered = COMMAND_KEYWORDS.filter(allowed);
  const keywords = [
    ...offered.map((keyword) => candidate(keyword, COMMANDS[keyword].description)),
    ...offered.flatMap((keyword) => {
      const { description, aliases } = COMMANDS[keyword];
      return aliases.map((alias) => candidate(alias, `${description} (same as ${keyword})`));
    }),
  ];
  const fullNames = new Map(vocab.users.map((user) => [user.login, user.fullName]));
  const bareValues: Candidate[] = [];
  const multiValues: Candidate[] = [];
  for (const [phrase, targets] of can.update ? lex.bareValues.byPhrase : []) {
    // A value spelled like a field name could never be typed alone; like a keyword it needs braces.
    if (lex.fields.has(phrase)) continue;
    const quote = lex.keywords.has(phrase) || lex.links.has(phrase);
    for (const [mode, list] of [['set', bareValues] as const, ['add', multiValues] as const]) {
      const resolution = resolveBareValue(phrase, targets, lex, mode);
      if (!resolution.ok) continue;
      const { target } = resolution;
      const alt = target.user && target.value ? fullNames.get(target.value)?.toLowerCase() : undefined;
      list.push(candidate(target.display, target.field.field.name, true, { quote, user: target.user, alt }));
    }
  }
  const person = (login: string, fullName: string) =>
    candidate(login, fullName, false, { alt: fullName.toLowerCase() });
  const users = can.star ? vocab.users.map((u) => person(u.login, u.fullName)) : [];
  if (can.star && vocab.me) users.unshift(candidate('me', `Me (${vocab.me})`));
  const fieldValues = new Map<FieldEntry, Candidate[]>();
  const valuesOf = (entry: FieldEntry) => {
    let list = fieldValues.get(entry);
    if (!list) {
      list = can.update ? fieldValueCandidates(entry, lex, fullNames, person) : [];
      fieldValues.set(entry, list);
    }
    return list;
  };
  return {
    fields,
    multiFields,
    keywords,
    links,
    bareValues,
    multiValues,
    users,
    tags: can.tag ? vocab.tags.filter((t) => typeable(t.name)).map((t) => candidate(t.name, 'Tag')) : [],
    workTypes:
      can.work && vocab.timeTracking
        ? vocab.workTypes.filter((t) => typeable(t.name)).map((t) => candidate(t.name, 'Work type'))
        : [],
    groups: can.visibility
      ? vocab.groups.filter((g) => typeable(g.name)).map((g) => candidate(g.name, 'Group'))
      : [],
    issueIds: can.link ? vocab.issueIds.map((id) => candidate(id, 'Issue')) : [],
    valuesOf,
  };
}

function fieldValueCandidates(
  entry: FieldEntry,
  lex: Lexicon,
  fullNames: Map<string, string>,
  person: (login: string, fullName: string) => Candidate,
): Candidate[] {
  const { field } = entry;
  const list: Candidate[] = [];
  if (field.kind === 'user') {
    if (entry.values.has('me')) list.push(candidate('me', `Me (${lex.vocab.me})`));
    const logins =
      field.values.length > 0 ? field.values.map((v) => v.name) : lex.vocab.users.map((u) => u.login);
    for (const login of logins) list.push(person(login, fullNames.get(login) ?? field.name));
  } else {
    for (const value of field.values) list.push(candidate(value.name, field.name, true));
  }
  if (field.canBeEmpty && field.emptyText && !field.multi)
    list.push(candidate(field.emptyText, field.name, true));
  return list.filter((c) => entry.values.has(normalizePhrase(c.option)));
}

const HTML_SPECIAL = /[&<>"']/g;

export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (ch) => `&#${ch.charCodeAt(0)};`);
}
