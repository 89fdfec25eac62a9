import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSession, DomainError, type Em, type Orm } from '@trackline/domain';
import { DEFAULT_INPUT_LIMITS } from '../rest/request-body.js';
import { readRequestInput } from '../rest/request-input.js';
import { sessionCookie } from './credentials.js';
import { type RequestGuard, tooManyFailures } from './limits.js';
import { checkPasswordOnce } from './password-check.js';

/**
 * `POST /rest/user/login` with `login` and `password` in the body or, as the original documented
 * and public clients send them (the python library's older versions, a PHP client, a Ruby push
 * hook, a C# service), in the query string. `queryPassword: false` (TRACKLINE_LOGIN_QUERY_PASSWORD=off)
 * refuses a password in the query with 400. This server never logs a query string (the request and
 * error logs name the route pattern only). Answers the legacy `<login>ok</login>` and sets ONE
 * cookie without Expires (see `sessionCookie`), `Secure` when the request came over HTTPS.
 */
export async function handleLogin(
  orm: Orm,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  guard?: Pick<RequestGuard, 'logins' | 'clientIp' | 'isSecure' | 'security'>,
  options: { queryPassword?: boolean } = {},
) {
  if (url.searchParams.has('password') && options.queryPassword === false)
    throw DomainError.invalid(
      'password',
      'must be sent in the request body, not in the query string (this server refuses it there)',
    );
  const fields = await readRequestInput(req, url.searchParams, DEFAULT_INPUT_LIMITS, 64 * 1024);
  const login = typeof fields.login === 'string' ? fields.login : '';
  const password = typeof fields.password === 'string' ? fields.password : '';
  if (!login) throw DomainError.invalid('login', 'is required');
  if (!password) throw DomainError.invalid('password', 'is required');
  // An attempt is reserved before the password is checked: parallel guesses are all counted,
  // and a throttled login or IP is refused without a check (no oracle while locked). Parallel
  // logins with the same pair share one check (`checkPasswordOnce`).
  const throttle = guard?.logins;
  const limit = throttle && guard ? { throttle, ip: guard.clientIp(req) } : undefined;
  const em = orm.em.fork() as Em;
  const outcome = await checkPasswordOnce(em, login, password, limit);
  if ('retryAfter' in outcome) {
    guard?.security.loginThrottled('form', login, outcome.retryAfter);
    res.setHeader('Retry-After', String(outcome.retryAfter));
    throw new DomainError('RATE_LIMITED', tooManyFailures(outcome.retryAfter));
  }
  // A failure keeps its reserved attempt.
  if (!outcome.user) {
    guard?.security.loginFailed('form', login);
    throw DomainError.unauthenticated('Incorrect login or password.');
  }
  guard?.security.loginSucceeded('form', outcome.user.login);
  const session = await createSession(em, outcome.user.id);
  res.setHeader('Set-Cookie', sessionCookie(session, guard?.isSecure(req) ?? false));
  // Clients compare the body with exactly `<login>ok</login>`, even those sending
  // `Accept: application/json`: the same bytes whatever the Accept, no XML declaration.
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/xml;charset=UTF-8');
  res.end('<login>ok</login>');
}
