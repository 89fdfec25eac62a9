import type { SecurityEvent } from '@trackline/domain';
import type { Logger } from 'pino';
import { requestContext } from './request-context.js';

/** How a caller tried to prove who they are. */
export type CredentialKind = 'basic' | 'form' | 'token' | 'session' | 'malformed' | 'current-password';

/**
 * The security log: failed and throttled logins, permission refusals on administrative routes,
 * and the domain's changes of authority (tokens, passwords, sessions, users, roles, groups;
 * `SecurityEvent`). Each line names the event, the user, the client's address and the request
 * id; it takes names only, never a password, token, cookie or query string.
 */
export type SecurityLog = {
  /** `login` when the credential names one ('' for none). */
  loginFailed(kind: CredentialKind, login?: string): void;
  loginThrottled(kind: CredentialKind, login: string, retryAfter: number): void;
  loginSucceeded(kind: CredentialKind, login: string): void;
  accessDenied(user: string, method: string, route: string, reason: string): void;
  changed(event: SecurityEvent): void;
};

/** Logins are names, not secrets; still, nothing longer than a login is copied into the log. */
const loginField = (login: string | undefined) => (login ? { user: login.slice(0, 100) } : {});

export function createSecurityLog(logger: Logger): SecurityLog {
  const log = logger.child({ log: 'security' });
  const request = () => {
    const context = requestContext.getStore();
    return context ? { requestId: context.requestId, clientIp: context.clientIp } : {};
  };
  return {
    loginFailed(kind, login) {
      log.warn(
        { event: 'login.failed', credential: kind, ...loginField(login), ...request() },
        'login failed',
      );
    },
    loginThrottled(kind, login, retryAfter) {
      log.warn(
        { event: 'login.throttled', credential: kind, ...loginField(login), retryAfter, ...request() },
        'login refused: too many failed attempts',
      );
    },
    loginSucceeded(kind, login) {
      log.info({ event: 'login.succeeded', credential: kind, ...loginField(login), ...request() }, 'login');
    },
    accessDenied(user, method, route, reason) {
      log.warn(
        { event: 'access.denied', user, method, route, reason, ...request() },
        'administrative request refused',
      );
    },
    changed({ actor, event, ...details }) {
      log.info({ event, user: actor, ...details, ...request() }, event);
    },
  };
}
