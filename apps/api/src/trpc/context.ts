import type { RouteMeta } from '@trackline/contracts';
import type { Actor, Em, Orm, ResourceLimits } from '@trackline/domain';

/** What a procedure may say about the HTTP response on `/rest` (ignored on `/trpc`). */
export type ResponseHints = {
  status?: number;
  headers: Record<string, string>;
  /** The matched procedure's meta, recorded for the REST renderer. */
  meta?: RouteMeta;
};

/** Facts about the HTTP request that some procedures need (sessions, passwords). */
export type RequestFacts = {
  /** The session cookie value when the caller authenticated with one (logout ends it). */
  session: string | null;
  /** Whether the request came over HTTPS (TLS, or a trusted proxy's `X-Forwarded-Proto`). */
  secure: boolean;
  /** Names of the query-string parameters: secrets must come in the body. */
  queryKeys: ReadonlySet<string>;
  /**
   * Checks `login`'s password under the login throttle (an attempt is reserved first);
   * throws 429 when throttled.
   */
  checkPassword(login: string, password: string): Promise<boolean>;
};

export type Context = {
  orm: Orm;
  /** The request's own entity manager, forked on first use. */
  readonly em: Em;
  /**
   * The ORM's shared entity manager, for read models that run statements only (`readRows`)
   * outside any transaction: no identity map, so nothing to fork. Entity methods on it throw
   * (MikroORM's global-context check); use `em` for those.
   */
  reads: Em;
  /** The authenticated caller, or null with the reason credentials were refused. */
  actor: Actor | null;
  authFailure: string | null;
  /** Per-user caps the use cases enforce (from the environment). */
  resourceLimits: ResourceLimits;
  /** Days a deleted project stays restorable. */
  trashDays: number;
  /** Whether this server sends notification e-mail (TRACKLINE_SMTP_URL). */
  emailAvailable?: boolean | undefined;
  /** `http://host:port` as the client addressed us, for legacy `url` attributes. */
  baseUrl: string;
  transport: 'rest' | 'trpc';
  response: ResponseHints;
  request: RequestFacts;
};

export const createResponseHints = (): ResponseHints => ({ headers: {} });
