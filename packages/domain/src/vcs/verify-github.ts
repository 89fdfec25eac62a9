import { DomainError } from '../errors.js';
import type { HeaderReader } from './hook-request.js';
import { hubSignatureValid } from './verify-signature.js';

/** `X-Hub-Signature-256` (sha256), or the legacy `X-Hub-Signature` (sha1) of older hooks. */
export function verifyGithub(header: HeaderReader, body: Buffer, secret: string): void {
  const signature = header('x-hub-signature-256') ?? header('x-hub-signature');
  if (!signature) throw DomainError.unauthenticated('Missing signature (X-Hub-Signature-256).');
  if (!hubSignatureValid(signature, body, secret)) throw DomainError.unauthenticated('Invalid signature.');
}
