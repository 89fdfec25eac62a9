import { type Candidate, type CandidateSets, candidatesOf } from './candidates.js';
import { MAX_COMMAND_LENGTH } from './definitions.js';
import { type Lexicon, lexiconOf } from './lexicon.js';
import { type Expectation, runParser } from './parser.js';
import type { Suggestion } from './result.js';
import { scan } from './scanner.js';
import { isSpace, type Token } from './token.js';
import type { CommandVocabulary } from './vocabulary.js';

const MAX_LIMIT = 1000;

/** Where a completion may start: the words typed since there, and what the grammar allows there. */
type Site = { start: number; typed: string; expectation: Expectation; quoted: boolean; wordsBack: boolean };

/**
 * Completions for the command at `caret`, best first: exact and prefix matches, then matches at
 * a word start, then anywhere. Offers only what the actor may apply, and only completions whose
 * result parses without an error in the completed stretch (quoting `{…}` when that is needed).
 */
export function suggestCommand(
  text: string,
  caret: number,
  vocab: CommandVocabulary,
  limit: number,
): Suggestion[] {
  const source = typeof text === 'string' ? text : '';
  const max = Number.isFinite(limit) ? Math.min(Math.floor(limit), MAX_LIMIT) : 0;
  if (max <= 0 || source.length > MAX_COMMAND_LENGTH) return [];
  const at = Number.isFinite(caret) ? Math.min(Math.max(Math.floor(caret), 0), source.length) : source.length;
  const lex = lexiconOf(vocab);
  const tokens = scan(source).tokens;
  const here = locate(source, tokens, at);
  const sites = sitesAt(source, tokens, here, lex);
  const hits = rank(sites, candidatesOf(lex), vocab);
  const suggestions: Suggestion[] = [];
  const seen = new Set<string>();
  for (const { site, candidate } of hits) {
    const key = `${site.start} ${candidate.quote} ${candidate.lower}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const suggestion = complete(source, site, here.end, candidate, lex);
    if (suggestion) suggestions.push(suggestion);
    if (suggestions.length >= max) break;
  }
  return suggestions;
}

type Here = ReturnType<typeof locate>;

/**
 * The sites a completion may start at: the token at the caret, and for multi-word names
 * (`State To be d|`) the words typed just before it, each with what the grammar allows there.
 */
function sitesAt(source: string, tokens: readonly Token[], here: Here, lex: Lexicon): Site[] {
  const { expectAt } = runParser(tokens.slice(0, here.index), lex, here.start);
  const sites: Site[] = [];
  for (let j = Math.max(0, here.index - lex.maxWords + 1); j < here.index && !here.quoted; j++) {
    const expectation = expectAt[j];
    const start = tokens[j]?.range.start ?? here.start;
    if (!expectation || tokens.slice(j, here.index).some((t) => t.kind !== 'word')) continue;
    const typed = typedText(source.slice(start, here.caret));
    sites.push({ start, typed, expectation, quoted: false, wordsBack: true });
  }
  const expectation = expectAt[here.index] ?? { command: true };
  sites.push({ start: here.start, typed: here.typed, expectation, quoted: here.quoted, wordsBack: false });
  return sites;
}

/**
 * The token at the caret: a word or `{…}` the caret is in or just after, else an empty
 * completion at the caret. `index` is the first token not before the completion.
 */
function locate(source: string, tokens: readonly Token[], at: number) {
  const index = tokens.findIndex((t) => t.range.end >= at);
  const token = index < 0 ? undefined : tokens[index];
  if (!token || token.range.start >= at || token.kind === 'unknown') {
    const next = index < 0 ? tokens.length : token && token.range.start >= at ? index : index + 1;
    return { index: next, caret: at, start: at, end: at, typed: '', quoted: false };
  }
  if (token.kind === 'word') {
    const typed = typedText(source.slice(token.range.start, at));
    return { index, caret: at, start: token.range.start, end: token.range.end, typed, quoted: false };
  }
  const innerEnd = token.closed ? token.range.end - 1 : token.range.end;
  const typed = typedText(source.slice(token.range.start + 1, Math.min(at, innerEnd))).trimStart();
  let end = token.range.end;
  if (!token.closed) for (end = at; end < source.length && !isSpace(source.charCodeAt(end)); ) end++;
  return { index, caret: at, start: token.range.start, end, typed, quoted: true };
}

/** Typed text as names are compared: lower case, single spaces (a trailing one kept). */
function typedText(text: string): string {
  return text.toLowerCase().replace(WHITESPACE_RUNS, ' ');
}

const WHITESPACE_RUNS = /\s+/g;

/** The candidate groups allowed at a site, in the order they are offered. */
function groupsAt(site: Site, sets: CandidateSets, vocab: CommandVocabulary): Candidate[][] {
  const e = site.expectation;
  const groups: Candidate[][] = [];
  if (e.field) groups.push(sets.valuesOf(e.field));
  if (e.users) groups.push(sets.users);
  if (e.tags) groups.push(sets.tags);
  if (e.groups) groups.push(sets.groups);
  if (e.workTypes) groups.push(sets.workTypes);
  if (e.issueIds) groups.push(sets.issueIds);
  if (e.multi) groups.push(sets.multiFields, sets.links, sets.multiValues);
  if (e.command) {
    // After a `star` the actor may not apply, a login would be read as its user: offer none.
    const values = e.users && !vocab.can.star ? sets.bareValues.filter((c) => !c.user) : sets.bareValues;
    groups.push(sets.fields, sets.keywords, sets.links, values);
  }
  // Braces make a literal name, never a keyword or link phrase.
  return site.quoted ? groups.filter((g) => g !== sets.keywords && g !== sets.links) : groups;
}

/** Matches by quality (exact, prefix, word start, anywhere), then longer sites, then offer order. */
function rank(sites: Site[], sets: CandidateSets, vocab: CommandVocabulary) {
  const buckets: { site: Site; candidate: Candidate }[][] = [[], [], [], []];
  for (const site of sites) {
    for (const group of groupsAt(site, sets, vocab)) {
      for (const candidate of group) {
        const quality = matchQuality(candidate, site.typed, site.wordsBack);
        if (quality >= 0) buckets[quality]?.push({ site, candidate });
      }
    }
  }
  return buckets.flat();
}

/** 0 exact, 1 prefix, 2 at a word start, 3 anywhere, -1 no match; words typed back match as prefixes only. */
function matchQuality(candidate: Candidate, typed: string, prefixOnly: boolean): number {
  const { lower, alt } = candidate;
  if (lower.startsWith(typed)) return lower.length === typed.length ? 0 : 1;
  if (alt?.startsWith(typed)) return 1;
  if (prefixOnly) return -1;
  for (let i = lower.indexOf(typed); i >= 0; i = lower.indexOf(typed, i + 1)) {
    if (isWordStart(lower, i)) return 2;
  }
  return lower.includes(typed) || alt?.includes(typed) ? 3 : -1;
}

function isWordStart(text: string, i: number): boolean {
  const before = text.charCodeAt(i - 1);
  return i === 0 || !((before >= 97 && before <= 122) || (before >= 48 && before <= 57) || before > 127);
}

/** The suggestion for a candidate, quoted if needed, or undefined if no form of it parses cleanly. */
function complete(source: string, site: Site, end: number, candidate: Candidate, lex: Lexicon) {
  const spaceFollows = end < source.length && isSpace(source.charCodeAt(end));
  const forms = site.quoted || candidate.quote ? [true] : [false, true];
  for (const quoted of forms) {
    const prefix = quoted ? '{' : '';
    const suffix = `${quoted ? '}' : ''}${spaceFollows ? '' : ' '}`;
    const inserted = prefix + candidate.option + suffix;
    // With a space already there, the caret goes past it, ready for the next word.
    const caret = site.start + inserted.length + (spaceFollows ? 1 : 0);
    const next = source.slice(0, site.start) + inserted + source.slice(end);
    if (next.length > MAX_COMMAND_LENGTH || !parsesCleanly(next, site.start, caret, lex)) continue;
    const matchStart = matchOffset(candidate.lower, site.typed);
    const matchEnd = matchStart < 0 ? 0 : Math.min(candidate.option.length, matchStart + site.typed.length);
    return {
      option: candidate.option,
      description: candidate.description,
      descriptionHtml: candidate.descriptionHtml,
      prefix,
      suffix,
      matchStart: Math.max(matchStart, 0),
      matchEnd,
      completionStart: site.start,
      completionEnd: end,
      caret,
      separator: false,
    };
  }
  return undefined;
}

/** Where `typed` matched in the option: preferably at a word start; -1 when it matched the full name. */
function matchOffset(lower: string, typed: string): number {
  const first = lower.indexOf(typed);
  for (let i = first; i >= 0; i = lower.indexOf(typed, i + 1)) if (isWordStart(lower, i)) return i;
  return first;
}

/** Whether `text` parses with no error range overlapping [from, to). */
function parsesCleanly(text: string, from: number, to: number, lex: Lexicon): boolean {
  const { ranges } = runParser(scan(text).tokens, lex, text.length).result;
  return !ranges.some((r) => r.style === 'error' && r.start < to && from < r.end);
}
