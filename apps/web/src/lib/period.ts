/** Minutes per unit of the period syntax (a week of 5 days of 8 hours, as the server counts). */
const UNITS: Record<string, number> = { w: 5 * 8 * 60, d: 8 * 60, h: 60, m: 1 };

/** `1w 2d 3h 4m` (or a plain number of minutes) in minutes; null when it does not read as one. */
export function parsePeriod(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+\s*[wdhm]\s*)+$/.test(trimmed)) return null;
  let minutes = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)\s*([wdhm])/g))
    minutes += Number(n) * (UNITS[unit as string] ?? 0);
  return minutes;
}

/** Minutes as `1w 2d 3h 4m` (units that are zero left out). */
export function formatPeriod(minutes: number): string {
  const parts: string[] = [];
  let rest = minutes;
  for (const [unit, size] of Object.entries(UNITS)) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ') || '0m';
}
