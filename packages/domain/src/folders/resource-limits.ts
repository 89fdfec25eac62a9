import { DomainError } from '../errors.js';

/**
 * Per-user caps on what a user may own. The API reads them from its environment and passes
 * them in; the domain never reads configuration itself. Without them, one account could
 * create rows until every folder list and command vocabulary became slow for everyone.
 */
export type ResourceLimits = { maxTagsPerUser: number; maxSavedSearchesPerUser: number };

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { maxTagsPerUser: 500, maxSavedSearchesPerUser: 500 };

/** A single command text may create at most this many new tags (`tag a tag b ...`). */
export const MAX_NEW_TAGS_PER_COMMAND = 5;

/** CONFLICT (409): the request is well-formed, but the owner already holds the maximum. */
export function limitReached(what: 'tags' | 'saved searches', max: number): DomainError {
  return new DomainError('CONFLICT', `Limit reached: a user may own at most ${max} ${what}.`);
}

/** A page of a list: `start` items skipped, at most `max` returned. */
export type Page = { start: number; max: number };

/** Folder lists answer at most this many entries per request (and this many by default). */
export const FOLDER_PAGE_MAX = 500;

/**
 * Pages through lists made of consecutive segments (own items, then shared ones...) without
 * loading the skipped ones: each segment says how many it holds and loads only a slice.
 */
export type Segment<T> = {
  count: () => Promise<number>;
  load: (offset: number, limit: number) => Promise<T[]>;
};

/** Every item: what internal lookups (a folder by name) use. */
export const WHOLE_LIST: Page = { start: 0, max: Number.POSITIVE_INFINITY };

/** ORM find options for one slice (no LIMIT for the whole list). */
export const sliceOptions = (offset: number, limit: number) =>
  Number.isFinite(limit) ? { offset, limit } : { offset };

export async function pageOverSegments<T>(segments: Segment<T>[], page: Page): Promise<T[]> {
  const out: T[] = [];
  let skip = page.start;
  for (const segment of segments) {
    if (out.length >= page.max) break;
    const size = await segment.count();
    if (skip >= size) {
      skip -= size;
      continue;
    }
    out.push(...(await segment.load(skip, page.max - out.length)));
    skip = 0;
  }
  return out;
}
