import { describe, expect, it } from 'vitest';
import { importedLoginProblem } from './login-rules.js';

describe('imported logins', () => {
  it('take the logins other trackers had: ASCII, accented and single-script letters', () => {
    for (const login of [
      'root',
      'john.doe',
      'j_doe+ci@corp',
      'José',
      'Ольга',
      'Σοφία',
      '山田',
      'a'.repeat(100),
    ])
      expect(importedLoginProblem(login), login).toBeNull();
  });

  it('refuse control, zero-width, bidirectional and private-use characters', () => {
    for (const login of ['ro\u0001ot', 'root\u200b', '\u202eexe.txt', 'ro\u00adot', 'x\ue000'])
      expect(importedLoginProblem(login), JSON.stringify(login)).toMatch(/control or invisible/);
  });

  it('refuse look-alikes: Latin mixed with Cyrillic or Greek letters, and fullwidth forms', () => {
    expect(importedLoginProblem('r\u043e\u043et')).toMatch(/look-alike/); // Cyrillic o's
    expect(importedLoginProblem('\u0391dmin')).toMatch(/look-alike/); // Greek capital alpha
    expect(importedLoginProblem('\uff52\uff4f\uff4f\uff54')).toMatch(/normal form/); // ｒｏｏｔ
    expect(importedLoginProblem('e\u0301')).toMatch(/normal form/); // decomposed é
  });

  it('refuse spaces, URL-breaking characters and bad lengths', () => {
    for (const login of ['a b', 'a/b', 'a?b', 'a#b', 'a%b', 'a&b', '<a>', 'a"b', "a'b", '', 'a'.repeat(101)])
      expect(importedLoginProblem(login), login).not.toBeNull();
  });
});
