import { createHmac } from 'node:crypto';
import type { VcsHost } from '@trackline/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { verifyHook } from './verify-hook.js';

const SECRET = "It's a Secret to Everybody";
const BODY = Buffer.from('{"zen":"Keep it logically awesome."}');
const hmac = (algorithm: string, body = BODY, secret = SECRET) =>
  `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;

const verdict = (host: VcsHost, headers: Record<string, string>, body = BODY) => {
  try {
    verifyHook(host, (name) => headers[name], body, SECRET);
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') return error.message;
    throw error;
  }
};

describe('verifyHook', () => {
  it('matches GitHub’s documented test vector', () => {
    // https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries
    const signature = '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    const body = Buffer.from('Hello, World!');
    expect(verdict('github', { 'x-hub-signature-256': `sha256=${signature}` }, body)).toBe('ok');
  });

  it.each<[string, VcsHost, Record<string, string>, string]>([
    ['github sha256', 'github', { 'x-hub-signature-256': hmac('sha256') }, 'ok'],
    ['github legacy sha1', 'github', { 'x-hub-signature': hmac('sha1') }, 'ok'],
    [
      'github upper-case hex',
      'github',
      { 'x-hub-signature-256': hmac('sha256').toUpperCase().replace('SHA256', 'sha256') },
      'ok',
    ],
    [
      'github sha256 header wins over a bad sha1',
      'github',
      { 'x-hub-signature-256': hmac('sha256'), 'x-hub-signature': 'sha1=00' },
      'ok',
    ],
    ['github missing', 'github', {}, 'Missing signature (X-Hub-Signature-256).'],
    [
      'github wrong secret',
      'github',
      { 'x-hub-signature-256': hmac('sha256', BODY, 'other') },
      'Invalid signature.',
    ],
    [
      'github other body',
      'github',
      { 'x-hub-signature-256': hmac('sha256', Buffer.from('{}')) },
      'Invalid signature.',
    ],
    [
      'github truncated',
      'github',
      { 'x-hub-signature-256': hmac('sha256').slice(0, -2) },
      'Invalid signature.',
    ],
    [
      'github sha1 digest under a sha256 prefix',
      'github',
      { 'x-hub-signature-256': `sha256=${hmac('sha1').slice(5)}` },
      'Invalid signature.',
    ],
    ['github no prefix', 'github', { 'x-hub-signature-256': hmac('sha256').slice(7) }, 'Invalid signature.'],
    ['bitbucket sha256 in X-Hub-Signature', 'bitbucket', { 'x-hub-signature': hmac('sha256') }, 'ok'],
    ['bitbucket sha1 prefix dispatches to sha1', 'bitbucket', { 'x-hub-signature': hmac('sha1') }, 'ok'],
    ['bitbucket missing', 'bitbucket', {}, 'Missing signature (X-Hub-Signature).'],
    ['bitbucket wrong', 'bitbucket', { 'x-hub-signature': hmac('sha256', BODY, 'x') }, 'Invalid signature.'],
    ['gitlab token', 'gitlab', { 'x-gitlab-token': SECRET }, 'ok'],
    ['gitlab wrong token', 'gitlab', { 'x-gitlab-token': `${SECRET}!` }, 'Invalid token.'],
    ['gitlab empty token', 'gitlab', { 'x-gitlab-token': '' }, 'Invalid token.'],
    ['gitlab missing', 'gitlab', {}, 'Missing token (X-Gitlab-Token).'],
    [
      'gitlab ignores hub signatures',
      'gitlab',
      { 'x-hub-signature-256': hmac('sha256') },
      'Missing token (X-Gitlab-Token).',
    ],
  ])('%s', (_name, host, headers, expected) => {
    expect(verdict(host, headers)).toBe(expected);
  });
});
