import { isStorableTimestamp, MAX_TEXT_LENGTH as MAX_TEXT } from '@trackline/contracts';
import type { SimpleKind } from './field-kinds.js';

/** The stored form of a simple field's value: `text` for string/text, `number` for the rest. */
export type SimpleValue = { text: string | null; number: number | null };

/** Period units in minutes, with the original's default working time: 8-hour days, 5-day weeks. */
const PERIOD_UNITS = { w: 5 * 8 * 60, d: 8 * 60, h: 60, m: 1 } as const;
const PERIOD = /^(?:\s*\d{1,7}\s*[wdhm])+\s*$/i;
const INTEGER = /^[+-]?\d{1,15}$/;
const FLOAT = /^[+-]?(?:\d{1,300}(?:\.\d{0,300})?|\.\d{1,300})(?:[eE][+-]?\d{1,3})?$/;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const MAX_STRING = 1000;

/**
 * Parses the text of a simple field's value (all linear-time patterns, bounded input). Returns
 * an error message (naming what was expected) instead of a value when the text does not fit.
 *  - integer: `42`, `-7`; float: `3.5`, `1e3`
 *  - date: milliseconds since the epoch (`1700000000000`, as the legacy API writes dates) or ISO `2026-11-23[T10:00[:00][Z]]` (UTC)
 *  - period: minutes (`90`) or `1w 2d 3h 4m` (a week is 5 days of 8 hours)
 *  - string: one line of at most 1000 characters; text: at most 64,000 characters
 */
export function parseSimpleValue(kind: SimpleKind, raw: string): SimpleValue | { error: string } {
  const text = kind === 'text' ? raw : raw.trim();
  switch (kind) {
    case 'string':
      if (/[\r\n]/.test(text)) return { error: 'must be one line' };
      if (text.length > MAX_STRING) return { error: `must be at most ${MAX_STRING} characters` };
      return { text, number: null };
    case 'text':
      if (text.length > MAX_TEXT) return { error: `must be at most ${MAX_TEXT} characters` };
      return { text, number: null };
    case 'integer':
      return INTEGER.test(text)
        ? { text: null, number: Number(text) }
        : { error: `[ ${short(raw)} ] is not an integer` };
    case 'float': {
      const n = FLOAT.test(text) ? Number(text) : Number.NaN;
      return Number.isFinite(n) ? { text: null, number: n } : { error: `[ ${short(raw)} ] is not a number` };
    }
    case 'date': {
      const ms = parseDate(text);
      return ms === null
        ? { error: `[ ${short(raw)} ] is not a date (milliseconds or YYYY-MM-DD)` }
        : { text: null, number: ms };
    }
    case 'period': {
      const minutes = parsePeriod(text);
      return minutes === null
        ? { error: `[ ${short(raw)} ] is not a period (minutes or 1w 2d 3h 4m)` }
        : { text: null, number: minutes };
    }
  }
}

const short = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function parseDate(text: string): number | null {
  const ms = readDate(text);
  return ms !== null && isStorableTimestamp(ms) ? ms : null;
}

function readDate(text: string): number | null {
  if (/^-?\d{1,15}$/.test(text)) return Number(text);
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const ms = Date.parse(
    m[4] === undefined ? `${text}T00:00:00Z` : /Z|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`,
  );
  return Number.isFinite(ms) ? ms : null;
}

function parsePeriod(text: string): number | null {
  if (/^\d{1,9}$/.test(text)) return Number(text);
  if (text.length > 100 || !PERIOD.test(text)) return null;
  let minutes = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)\s*([wdhm])/gi)) {
    minutes += Number(amount) * PERIOD_UNITS[(unit ?? 'm').toLowerCase() as keyof typeof PERIOD_UNITS];
  }
  return minutes;
}

/** `1w 2d 3h 4m` (zero parts left out; `0m` for nothing). */
export function formatPeriod(minutes: number): string {
  let rest = Math.max(0, Math.round(minutes));
  const parts: string[] = [];
  for (const [unit, size] of Object.entries(PERIOD_UNITS)) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  return parts.length ? parts.join(' ') : '0m';
}

/**
 * A simple value as issue representations show it: the text, the number, the date as
 * milliseconds since the epoch (as the legacy API writes dates) and the period as `1w 2d`.
 */
export function formatSimpleValue(kind: string, text: string | null, number: unknown): string {
  if (text !== null) return text;
  const n = Number(number);
  if (kind === 'period') return formatPeriod(n);
  return String(n);
}
