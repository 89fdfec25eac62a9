import type { RouteMeta } from '@trackline/contracts';
import type { Actor, Em, Orm, ResourceLimits } from '@trackline/domain';

/** What a procedure may say about the HTTP response on `/rest` (ignored on `/trpc`). */
export type ResponseHints = {
  status?: number;
  headers: Record<string, string>;
  /** The matched procedure's meta, recorded for the REST renderer. */
  meta?: RouteMeta;
};

export type Context = {
  orm: Orm;
  em: Em;
  /** The authenticated caller, or null with the reason credentials were refused. */
  actor: Actor | null;
  authFailure: string | null;
  /** Per-user caps the use cases enforce (from the environment). */
  resourceLimits: ResourceLimits;
  /** Days a deleted project stays restorable. */
  trashDays: number;
  /** `http://host:port` as the client addressed us, for legacy `url` attributes. */
  baseUrl: string;
  transport: 'rest' | 'trpc';
  response: ResponseHints;
};

export const createResponseHints = (): ResponseHints => ({ headers: {} });
