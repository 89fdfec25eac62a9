import { describe, expect, it } from 'vitest';
import { QueryBool } from './query-bool.js';

describe('QueryBool', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['1', true],
    [true, true],
    ['false', false],
    ['False', false],
    ['0', false],
    [false, false],
  ])('decodes %j as %j', (input, expected) => {
    expect(QueryBool.parse(input)).toBe(expected);
  });

  it.each(['maybe', 'yes', '', '2'])('rejects %j', (input) => {
    expect(QueryBool.safeParse(input).success).toBe(false);
  });
});
