import { describe, expect, it } from 'vitest';
import { ZProjectShortName } from '../projects/project.contract.js';
import { name } from './text-fields.js';

describe('name()', () => {
  const roleName = name(10);
  it('trims and accepts ordinary names, including spaces', () => {
    expect(roleName.parse('  Project X ')).toBe('Project X');
  });
  it.each([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['x'.repeat(11), 'must be at most 10 characters'],
    ['bad\u0007name', 'must not contain control characters'],
  ])('rejects %j with "%s"', (input, message) => {
    const result = roleName.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('project short name', () => {
  it.each(['A', 'CMN', 'web_2', 'Abc123'])('accepts %s', (v) => expect(ZProjectShortName.parse(v)).toBe(v));
  it.each(['1ABC', 'A-B', 'A B', '', '_X', 'x'.repeat(51)])('rejects %j', (v) => {
    expect(ZProjectShortName.safeParse(v).success).toBe(false);
  });
});
