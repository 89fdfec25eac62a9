import type { Em } from '../orm/em.js';
import type { Actor } from './actor.js';

/**
 * Changes that grant, take or reach authority: what an administrator reading the security log
 * wants to find after the fact. The domain says what happened and who did it; the API, which
 * knows the request, adds its id and the client's address and writes the log line
 * (`apps/api/src/log/`). Events carry names only, never a secret (no password, no token value).
 */
export type SecurityEventName =
  | 'password.changed'
  | 'sessions.ended'
  | 'token.created'
  | 'token.revoked'
  | 'user.created'
  | 'user.deleted'
  | 'user.merged'
  | 'user.email.changed'
  | 'user.banned'
  | 'user.unbanned'
  | 'role.created'
  | 'role.updated'
  | 'role.permission.added'
  | 'role.permission.removed'
  | 'role.granted'
  | 'role.revoked'
  | 'group.created'
  | 'group.updated'
  | 'group.deleted'
  | 'group.member.added'
  | 'group.member.removed';

export type SecurityEvent = {
  event: SecurityEventName;
  /** The login of who did it. */
  actor: string;
  /** The account concerned (its login), when it is one. */
  target?: string | undefined;
  role?: string | undefined;
  /** A project's short name: where a role is granted or revoked (absent: globally). */
  project?: string | undefined;
  group?: string | undefined;
  permission?: string | undefined;
  /** A permanent token's name (never its value). */
  tokenName?: string | undefined;
  /** What else changed, by name (e.g. `autoJoin`, `newName`). */
  changes?: string[] | undefined;
  count?: number | undefined;
  /** The account merged away (`user.merged`; `target` is the one kept). */
  merged?: string | undefined;
};

export type SecurityEventSink = (event: SecurityEvent) => void;

/** One sink per database (the ORM's connection), like the caches: a test process opens many. */
const sinks = new WeakMap<object, SecurityEventSink>();

/** Where this database's security events go (the API's logger); none: they are dropped. */
export function setSecurityEventSink(em: Pick<Em, 'getConnection'>, sink: SecurityEventSink | null): void {
  if (sink) sinks.set(em.getConnection(), sink);
  else sinks.delete(em.getConnection());
}

/**
 * Reports a change that was made (call it once the write succeeded). A failing sink must not undo or fail
 * the change it reports: its errors are swallowed here.
 */
export function emitSecurityEvent(
  em: Pick<Em, 'getConnection'>,
  actor: Actor,
  event: Omit<SecurityEvent, 'actor'>,
) {
  const sink = sinks.get(em.getConnection());
  if (!sink) return;
  try {
    sink({ ...event, actor: actor.login });
  } catch {
    // The log is a witness, not a participant.
  }
}

/** The names of the fields a change sets (those not undefined). */
export const changedNames = (changes: Record<string, unknown>): string[] =>
  Object.keys(changes).filter((key) => changes[key] !== undefined);
