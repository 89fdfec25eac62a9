import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { assertNotCommandPhrase, linkNameKey, normalizeLinkName } from './link-phrases.js';

describe('link phrase normalisation', () => {
  it('makes every run of Unicode whitespace one space and trims, keeping case', () => {
    for (const text of [
      'relates\u00A0to',
      'relates  to',
      ' relates\u2003\tto\u3000',
      'relates\u0085to',
      'relates\uFEFFto',
    ]) {
      expect(normalizeLinkName(text)).toBe('relates to');
    }
    expect(normalizeLinkName(' Relates\u202FTo ')).toBe('Relates To');
  });

  it('composes to NFC, so canonically equal phrases share a key', () => {
    expect(linkNameKey('Cafe\u0301 of')).toBe(linkNameKey('CAF\u00C9 OF'));
    expect(linkNameKey('Cafe\u0301 OF')).toBe('caf\u00E9 of');
  });
});

describe('assertNotCommandPhrase', () => {
  const reserved = new Set(['fixed', 'state', 'for', 'me', "won't fix"]);
  const refusal = (phrase: string) => {
    try {
      assertNotCommandPhrase(reserved, 'outwardName', phrase);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return (error as DomainError).issues?.[0];
    }
  };

  it('refuses a phrase equal to, or starting with, a reserved phrase, naming the field', () => {
    expect(refusal('FIXED')?.field).toBe('outwardName');
    expect(refusal('state\u00A0fixed')?.message).toMatch(/starts with \[ state \]/);
    expect(refusal("Won't  fix")).not.toBeNull();
    expect(refusal('for me')).not.toBeNull();
  });

  it('accepts phrases that only contain reserved words later or as parts of words', () => {
    for (const phrase of ['is required for', 'fixes', 'merges', 'statement of', 'won\u2019t']) {
      expect(refusal(phrase)).toBeNull();
    }
  });
});
