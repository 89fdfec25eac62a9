import type { ValueColor } from '@trackline/contracts';

/**
 * The colours of the original's colour indices (index 0: no colour). Values without a colour
 * index get index 0; an index beyond the table wraps around.
 */
const PALETTE: readonly ValueColor[] = [
  { bg: '#ffffff', fg: '#444444' },
  { bg: '#8d5100', fg: '#ffffff' },
  { bg: '#ce6700', fg: '#ffffff' },
  { bg: '#409600', fg: '#ffffff' },
  { bg: '#0070e4', fg: '#ffffff' },
  { bg: '#900052', fg: '#ffffff' },
  { bg: '#0050a1', fg: '#ffffff' },
  { bg: '#2f9890', fg: '#ffffff' },
  { bg: '#8e1600', fg: '#ffffff' },
  { bg: '#dc0083', fg: '#ffffff' },
  { bg: '#7dbd36', fg: '#ffffff' },
  { bg: '#ff7123', fg: '#ffffff' },
];

export function colorOf(colorIndex: number | undefined): ValueColor {
  const index = colorIndex === undefined || colorIndex < 0 ? 0 : colorIndex % PALETTE.length;
  return PALETTE[index] ?? { bg: '#ffffff', fg: '#444444' };
}

/** A tag's CSS class in the original (`c0`…), from its colour index. */
export const cssClassOf = (colorIndex: number | undefined) => `c${colorIndex ?? 0}`;
