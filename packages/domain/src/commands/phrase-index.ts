import { phraseWords, type Token } from './token.js';

export type PhraseMatch<T> = { length: number; targets: T[] };

type Entry<T> = { words: string[]; target: T };

/**
 * Names of one kind (fields, values of a field, tags…) looked up by the typed words. A name
 * matches when each of its words is one word token; a `{…}` token matches a whole name.
 */
export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, Entry<T>[]>();
  /** Every name by its normalized text, in the order added. */
  readonly byPhrase = new Map<string, T[]>();
  maxWords = 0;

  add(name: string, target: T): void {
    // A name with braces could never be typed: the scanner splits words at braces.
    if (name.includes('{') || name.includes('}')) return;
    const words = phraseWords(name);
    const first = words[0];
    if (first === undefined) return;
    const phrase = words.join(' ');
    const same = this.byPhrase.get(phrase);
    if (same) same.push(target);
    else this.byPhrase.set(phrase, [target]);
    const entries = this.byFirst.get(first);
    if (entries) entries.push({ words, target });
    else this.byFirst.set(first, [{ words, target }]);
    this.maxWords = Math.max(this.maxWords, words.length);
  }

  has(phrase: string): boolean {
    return this.byPhrase.has(phrase);
  }

  /** The longest names matching the tokens at `pos`, or undefined. */
  match(tokens: readonly Token[], keys: readonly string[], pos: number): PhraseMatch<T> | undefined {
    const token = tokens[pos];
    const key = keys[pos];
    if (token === undefined || key === undefined) return undefined;
    if (token.kind === 'quoted') {
      const targets = this.byPhrase.get(key);
      return targets ? { length: 1, targets } : undefined;
    }
    if (token.kind !== 'word') return undefined;
    let best: PhraseMatch<T> | undefined;
    for (const entry of this.byFirst.get(key) ?? []) {
      const length = entry.words.length;
      if ((best && length < best.length) || !wordsMatch(entry.words, tokens, keys, pos)) continue;
      if (best && best.length === length) best.targets.push(entry.target);
      else best = { length, targets: [entry.target] };
    }
    return best;
  }
}

function wordsMatch(
  words: string[],
  tokens: readonly Token[],
  keys: readonly string[],
  pos: number,
): boolean {
  for (let i = 1; i < words.length; i++) {
    if (tokens[pos + i]?.kind !== 'word' || keys[pos + i] !== words[i]) return false;
  }
  return true;
}
