/**
 * Pure request-body parsing shared by the REST layer (apps/api/src/rest/request-body.ts) and
 * the VCS hook receiver (packages/domain/src/vcs/hook-request.ts): media types, form entries
 * and JSON objects. Nothing here knows HTTP or throws a domain error; each caller turns the
 * answers into its own messages (a body's fields are `body`, a hook's are `payload`).
 */

/** The media type of a Content-Type header: lower-cased, parameters dropped; '' when absent. */
export const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The body formats Trackline reads; `other` is answered 415 by every reader. */
export type MediaKind = 'none' | 'text' | 'json' | 'form' | 'xml' | 'other';

/** What kind of body a media type (from `mediaTypeOf`) declares; `+json`/`+xml` suffixes count. */
export function mediaKindOf(type: string): MediaKind {
  if (type === '') return 'none';
  if (type === 'text/plain') return 'text';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return 'other';
}

/**
 * The entries of a form text (its non-empty `&`-separated parts, as URLSearchParams reads them),
 * counting up to `stopAt`: an oversized form is refused without decoding its entries.
 */
export function countFormEntries(text: string, stopAt: number): number {
  let count = 0;
  for (let start = 0; start < text.length && count < stopAt; ) {
    const amp = text.indexOf('&', start);
    const end = amp === -1 ? text.length : amp;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

export type FormFields = Record<string, string | string[]>;

/**
 * Repeated names become arrays, single ones strings, in one pass over the entries (a `getAll()`
 * per distinct name made a body of n distinct names cost n² steps). `undefined` when there are
 * more than `maxParameters` entries, counting `alreadySeen` ones of another part of the request.
 */
export function groupFormEntries(
  entries: Iterable<[string, string]>,
  maxParameters: number,
  alreadySeen = 0,
): FormFields | undefined {
  const byName = new Map<string, string | string[]>();
  let count = alreadySeen;
  for (const [key, value] of entries) {
    if (++count > maxParameters) return undefined;
    const seen = byName.get(key);
    if (seen === undefined) byName.set(key, value);
    else if (Array.isArray(seen)) seen.push(value);
    else byName.set(key, [seen, value]);
  }
  // fromEntries defines own properties: a field named `__proto__` stays a plain field.
  return Object.fromEntries(byName);
}

/** The first value of field `name` in a form text; null when absent. */
export const formFieldOf = (text: string, name: string): string | null => new URLSearchParams(text).get(name);

/** A JSON text that must hold an object: the object, or why not. */
export function parseJsonObject(
  text: string,
): { value: Record<string, unknown> } | { problem: 'is not valid JSON' | 'must be a JSON object' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'must be a JSON object' };
  return { value: value as Record<string, unknown> };
}
