import { createHmac } from 'node:crypto';
import { digestsEqual, sha256Hex } from '../auth/secrets.js';

/**
 * `sha1=<hex>` or `sha256=<hex>` HMAC of the exact bytes received, compared in constant time.
 * The algorithm comes from the prefix, not the header name: Bitbucket Cloud sends sha256 in
 * `X-Hub-Signature`, where GitHub's legacy hooks send sha1.
 */
export function hubSignatureValid(header: string, body: Buffer, secret: string): boolean {
  const match = /^(sha1|sha256)=([0-9a-f]{40}|[0-9a-f]{64})$/i.exec(header.trim());
  if (!match?.[1] || !match[2]) return false;
  const algorithm = match[1].toLowerCase();
  const given = match[2].toLowerCase();
  if ((algorithm === 'sha1') !== (given.length === 40)) return false;
  const expected = createHmac(algorithm, secret).update(body).digest('hex');
  return digestsEqual(expected, given);
}

/** A shared token (GitLab): compared as digests so length and content leak nothing. */
export function tokenValid(given: string, secret: string): boolean {
  return digestsEqual(sha256Hex(given), sha256Hex(secret));
}
