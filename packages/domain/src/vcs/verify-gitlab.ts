import { DomainError } from '../errors.js';
import type { HeaderReader } from './hook-request.js';
import { tokenValid } from './verify-signature.js';

/** GitLab sends the secret itself in `X-Gitlab-Token` (no signature over the body). */
export function verifyGitlab(header: HeaderReader, _body: Buffer, secret: string): void {
  const token = header('x-gitlab-token');
  if (token === undefined) throw DomainError.unauthenticated('Missing token (X-Gitlab-Token).');
  if (!tokenValid(token, secret)) throw DomainError.unauthenticated('Invalid token.');
}
