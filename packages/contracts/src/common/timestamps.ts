import { z } from 'zod';

/**
 * The times Trackline stores: 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in ms since
 * the epoch. JavaScript dates reach further (±8.64e15 ms), PostgreSQL's timestamps do not; a time
 * outside this range is refused with a 400 naming the field, on both databases alike.
 */
export const MIN_TIMESTAMP_MS = -62_135_596_800_000;
export const MAX_TIMESTAMP_MS = 253_402_300_799_999;

export const isStorableTimestamp = (ms: number) =>
  Number.isInteger(ms) && ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS;

/** A storable time in ms (query and form values are coerced from text). */
export const ZTimestampMs = z.coerce
  .number()
  .int('must be a whole number of ms')
  .min(MIN_TIMESTAMP_MS, 'must be a time from the year 1 on')
  .max(MAX_TIMESTAMP_MS, 'must be a time before the year 10000');
