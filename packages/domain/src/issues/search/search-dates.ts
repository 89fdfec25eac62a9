/**
 * Dates in search values: what interval of time a value stands for, in the server's time zone
 * (a setting; UTC by default). Intervals are half-open, [from, to) in ms since the epoch.
 *
 * - absolute: `2014-10-24` (that day), `2014-10` (that month), `2014` (that year),
 *   `2014-10-24T10:30[:00]` (that minute or second); milliseconds since the epoch (that instant);
 * - relative, as the original's reference lists them: `Now`, `Today`, `Yesterday`, `Tomorrow`,
 *   `{This week}`, `{Last week}`, `{Next week}`, `{Two weeks ago}`, `{Three weeks ago}`,
 *   `{This month}`, `{Last month}`, `{Next month}`, `{This year}`, `{Last year}`, `Older`
 *   (before the start of last month) and the names of the days of the current week.
 * Weeks start on Monday.
 */
export type Interval = { from: number; to: number };

const DAY = 24 * 60 * 60 * 1000;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export const RELATIVE_DATES = [
  'Now',
  'Today',
  'Yesterday',
  'Tomorrow',
  'This week',
  'Last week',
  'Next week',
  'Two weeks ago',
  'Three weeks ago',
  'This month',
  'Last month',
  'Next month',
  'This year',
  'Last year',
  'Older',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];

/** Whether `zone` is a time zone name the runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock date and time at `ms` in `zone`. */
function wallClock(ms: number, zone: string) {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The instant at which the wall clock of `zone` shows the given time (the earlier one in a DST overlap). */
export function zonedTime(
  zone: string,
  year: number,
  month: number,
  day = 1,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const w = wallClock(guess, zone);
    const shown = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    const diff = shown - asUtc;
    if (diff === 0) break;
    guess -= diff;
  }
  return guess;
}

function startOfDay(ms: number, zone: string, addDays = 0): number {
  const w = wallClock(ms, zone);
  return zonedTime(zone, w.year, w.month, w.day + addDays);
}

function startOfWeek(ms: number, zone: string, addWeeks = 0): number {
  const w = wallClock(ms, zone);
  const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7; // Monday = 0
  return zonedTime(zone, w.year, w.month, w.day - weekday + 7 * addWeeks);
}

function startOfMonth(ms: number, zone: string, addMonths = 0): number {
  const w = wallClock(ms, zone);
  return zonedTime(zone, w.year, w.month + addMonths, 1);
}

function startOfYear(ms: number, zone: string, addYears = 0): number {
  const w = wallClock(ms, zone);
  return zonedTime(zone, w.year + addYears, 1, 1);
}

/** The interval a relative date names at `now`, or undefined when `key` (lower-cased) names none. */
export function relativeInterval(key: string, now: number, zone: string): Interval | undefined {
  const day = (n: number) => ({ from: startOfDay(now, zone, n), to: startOfDay(now, zone, n + 1) });
  const week = (n: number) => ({ from: startOfWeek(now, zone, n), to: startOfWeek(now, zone, n + 1) });
  const month = (n: number) => ({ from: startOfMonth(now, zone, n), to: startOfMonth(now, zone, n + 1) });
  switch (key) {
    case 'now':
      return { from: now, to: now + 1 };
    case 'today':
      return day(0);
    case 'yesterday':
      return day(-1);
    case 'tomorrow':
      return day(1);
    case 'this week':
      return week(0);
    case 'last week':
      return week(-1);
    case 'next week':
      return week(1);
    case 'two weeks ago':
      return week(-2);
    case 'three weeks ago':
      return week(-3);
    case 'this month':
      return month(0);
    case 'last month':
      return month(-1);
    case 'next month':
      return month(1);
    case 'this year':
      return { from: startOfYear(now, zone), to: startOfYear(now, zone, 1) };
    case 'last year':
      return { from: startOfYear(now, zone, -1), to: startOfYear(now, zone) };
    case 'older':
      return { from: Date.parse('0001-01-01T00:00:00Z'), to: startOfMonth(now, zone, -1) };
  }
  const weekday = WEEKDAYS.indexOf(key);
  if (weekday < 0) return undefined;
  const from = startOfWeek(now, zone) + 0; // the week's Monday, then whole days on (DST-safe)
  const w = wallClock(from, zone);
  return {
    from: zonedTime(zone, w.year, w.month, w.day + weekday),
    to: zonedTime(zone, w.year, w.month, w.day + weekday + 1),
  };
}

const ABSOLUTE = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?)?)?$/;

/** The interval of an absolute or relative date value, or undefined when it is not a date. */
export function dateInterval(text: string, now: number, zone: string): Interval | undefined {
  const key = text.trim().toLowerCase().split(/\s+/).join(' ');
  const relative = relativeInterval(key, now, zone);
  if (relative) return relative;
  if (/^\d{10,15}$/.test(key)) {
    const ms = Number(key);
    return { from: ms, to: ms + 1 };
  }
  const m = ABSOLUTE.exec(key);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m
    .slice(1)
    .map((v) => (v === undefined ? undefined : Number(v)));
  if (year === undefined || year < 1 || year > 9999) return undefined;
  if (month !== undefined && (month < 1 || month > 12)) return undefined;
  if (day !== undefined && (day < 1 || day > 31)) return undefined;
  if (hour !== undefined && (hour > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59)) return undefined;
  if (month === undefined) return { from: zonedTime(zone, year, 1), to: zonedTime(zone, year + 1, 1) };
  if (day === undefined) return { from: zonedTime(zone, year, month), to: zonedTime(zone, year, month + 1) };
  if (hour === undefined)
    return { from: zonedTime(zone, year, month, day), to: zonedTime(zone, year, month, day + 1) };
  const from = zonedTime(zone, year, month, day, hour, minute ?? 0, second ?? 0);
  return { from, to: from + (second === undefined ? 60_000 : 1000) };
}

export const ONE_DAY_MS = DAY;
