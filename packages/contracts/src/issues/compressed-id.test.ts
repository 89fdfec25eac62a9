import { describe, expect, it } from 'vitest';
import { decodeCompressedId, encodeCompressedId } from './compressed-id.js';

describe('compressed ids', () => {
  it.each([
    [1234, 'JI'],
    [64, '10'],
    [100000, 'OQW'],
    [0, '0'],
    [35, 'Z'],
    [36, 'a'],
    [63, '_'],
    [62 * 64 + 63, '-_'],
  ])('%i is written %s and read back', (value, text) => {
    expect(encodeCompressedId(value)).toBe(text);
    expect(decodeCompressedId(text)).toBe(value);
  });

  it.each(['', 'PRJ.1', '~', 'ABCDEFGHI', 'a b'])('rejects %j', (text) => {
    expect(decodeCompressedId(text)).toBeNull();
  });
});
