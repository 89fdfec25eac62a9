import { DomainError } from '../errors.js';
import type { HeaderReader } from './hook-request.js';
import { hubSignatureValid } from './verify-signature.js';

/** Bitbucket Cloud signs with `X-Hub-Signature: sha256=<hex>` (GitHub's header name, sha256). */
export function verifyBitbucket(header: HeaderReader, body: Buffer, secret: string): void {
  const signature = header('x-hub-signature') ?? header('x-hub-signature-256');
  if (!signature) throw DomainError.unauthenticated('Missing signature (X-Hub-Signature).');
  if (!hubSignatureValid(signature, body, secret)) throw DomainError.unauthenticated('Invalid signature.');
}
