const channel = (hex: string, at: number) => {
  const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of `#rrggbb` (null for anything else). */
export function luminance(hex: string): number | null {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return null;
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

export const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

const DARK = '#1f2328';
const LIGHT = '#ffffff';
const BLACK = '#000000';

/**
 * The text colour for a chip on `bg`: the bundle's own when it reads (WCAG AA, 4.5:1), else
 * whichever of near-black and white contrasts more. Some of the original palette's pairs
 * (white on teal, lime or orange) do not reach AA; the background stays the value's colour.
 */
export function readableText(bg: string, fg: string): string {
  const back = luminance(bg);
  const front = luminance(fg);
  if (back === null) return fg;
  if (front !== null && contrast(back, front) >= 4.5) return fg;
  // Near-black, white, then black (mid-tones such as orange need pure black to reach 4.5:1).
  const candidates = [DARK, LIGHT, BLACK].map((c) => ({ c, ratio: contrast(back, luminance(c) as number) }));
  const readable = candidates.find((x) => x.ratio >= 4.5 && x.c !== BLACK);
  return (readable ?? candidates.reduce((a, b) => (b.ratio > a.ratio ? b : a))).c;
}
