import { describe, expect, it } from 'vitest';
import { commandTagName, folderName, ownedNameKey } from './owned-names.js';

describe('owned names: one normalisation for tags and saved searches', () => {
  it('trims and keys names case-insensitively, the same on both paths', () => {
    for (const make of [folderName, commandTagName]) {
      expect(make('  Open Bugs ')).toBe('Open Bugs');
      expect(ownedNameKey(make('  Open Bugs '))).toBe('open bugs');
    }
  });

  it('differs only on control characters: the routes replace them, commands refuse them', () => {
    expect(folderName('a\tb')).toBe('a b');
    expect(() => commandTagName('a\tb')).toThrow(/control characters/);
    expect(ownedNameKey('A\tB')).toBe(ownedNameKey(folderName('A\tB')));
  });

  it('refuses empty and over-long names on both paths', () => {
    for (const make of [folderName, commandTagName]) {
      expect(() => make('   ')).toThrow(/must not be empty/);
      expect(() => make('x'.repeat(101))).toThrow(/at most 100/);
    }
  });
});
