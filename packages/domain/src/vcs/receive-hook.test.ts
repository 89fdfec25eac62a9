import { createHmac } from 'node:crypto';
import type { VcsHost } from '@trackline/contracts';
import {
  createIntegration,
  createTestOrm,
  fixtureText,
  fork,
  hookRequest,
  setUpVcsScenario,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import type { HookRequest } from './hook-request.js';
import { findIntegrationByApiKey } from './integrations.js';
import { receiveHook } from './receive-hook.js';

const SECRET = 'hook-secret';
const sign = (algorithm: 'sha1' | 'sha256', body: string | Buffer, secret = SECRET) =>
  `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;

let orm: Orm;
let root: Actor;
const keys = {} as Record<VcsHost, string>;

beforeAll(async () => {
  orm = await createTestOrm();
  root = await setUpVcsScenario(orm);
  for (const host of ['github', 'gitlab', 'bitbucket'] as const) {
    keys[host] = (await createIntegration(orm, root, { name: host, host, secret: SECRET })).apiKey;
  }
});
afterAll(() => orm.close(true));

/** The receiver's outcome for an apiKey and request: the status, or the refusal. */
async function receive(host: VcsHost, apiKey: string | null, request: HookRequest) {
  try {
    const integration = await findIntegrationByApiKey(fork(orm), host, apiKey);
    const receipt = await receiveHook(fork(orm), integration, request);
    return `${receipt.status} ${receipt.body.status}`;
  } catch (error) {
    if (error instanceof DomainError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const github = fixtureText('github-push');
const pushHeaders = { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': sign('sha256', github) };

describe('receiveHook refuses, and records nothing', () => {
  it.each<[string, VcsHost, () => string | null, HookRequest, string]>([
    [
      'no apiKey',
      'github',
      () => null,
      hookRequest('github', github, pushHeaders),
      'UNAUTHENTICATED: An apiKey is required.',
    ],
    [
      'an unknown apiKey',
      'github',
      () => 'vcs_nope',
      hookRequest('github', github, pushHeaders),
      'UNAUTHENTICATED: Unknown apiKey.',
    ],
    [
      'another host’s apiKey',
      'github',
      () => keys.gitlab,
      hookRequest('github', github, pushHeaders),
      'PERMISSION_DENIED: You have no rights to receive github hooks with the apiKey of a gitlab integration.',
    ],
    [
      'a missing signature',
      'github',
      () => keys.github,
      hookRequest('github', github, { 'X-GitHub-Event': 'push' }),
      'UNAUTHENTICATED: Missing signature (X-Hub-Signature-256).',
    ],
    [
      'a signature made with another secret',
      'github',
      () => keys.github,
      hookRequest('github', github, { 'X-Hub-Signature-256': sign('sha256', github, 'guess') }),
      'UNAUTHENTICATED: Invalid signature.',
    ],
    [
      'a signature of other bytes (re-serialised JSON)',
      'github',
      () => keys.github,
      hookRequest('github', github, {
        'X-Hub-Signature-256': sign('sha256', JSON.stringify(JSON.parse(github))),
      }),
      'UNAUTHENTICATED: Invalid signature.',
    ],
    [
      'a wrong GitLab token',
      'gitlab',
      () => keys.gitlab,
      hookRequest('gitlab', fixtureText('gitlab-push'), { 'X-Gitlab-Token': 'x' }),
      'UNAUTHENTICATED: Invalid token.',
    ],
    [
      'a Bitbucket signature over other bytes',
      'bitbucket',
      () => keys.bitbucket,
      hookRequest('bitbucket', fixtureText('bitbucket-cloud-push'), {
        'X-Hub-Signature': sign('sha256', '{}'),
      }),
      'UNAUTHENTICATED: Invalid signature.',
    ],
    [
      'a signed ping still needs the right signature',
      'github',
      () => keys.github,
      hookRequest('github', fixtureText('github-ping'), {
        'X-GitHub-Event': 'ping',
        'X-Hub-Signature-256': 'sha256=00',
      }),
      'UNAUTHENTICATED: Invalid signature.',
    ],
    [
      'malformed JSON (signed)',
      'github',
      () => keys.github,
      hookRequest('github', '{"ref":', { 'X-Hub-Signature-256': sign('sha256', '{"ref":') }),
      'VALIDATION_FAILED: payload: is not valid JSON',
    ],
    [
      'a push of another repository',
      'github',
      () => keys.github,
      (() => {
        const body = github.replace('"full_name": "trackline/webapp"', '"full_name": "evil/fork"');
        return hookRequest('github', body, { 'X-Hub-Signature-256': sign('sha256', body) });
      })(),
      'PERMISSION_DENIED: You have no rights to receive pushes of repository [ evil/fork ] with this apiKey.',
    ],
  ])('%s', async (_name, host, apiKey, request, expected) => {
    const before = await fork(orm).count(VcsDelivery, {});
    expect(await receive(host, apiKey(), request)).toBe(expected);
    expect(await fork(orm).count(VcsDelivery, {})).toBe(before);
  });
});

describe('receiveHook accepts', () => {
  it.each<[string, VcsHost, () => HookRequest, string]>([
    [
      'a GitHub ping (nothing stored)',
      'github',
      () =>
        hookRequest('github', fixtureText('github-ping'), {
          'X-GitHub-Event': 'ping',
          'X-Hub-Signature-256': sign('sha256', fixtureText('github-ping')),
        }),
      '200 pong',
    ],
    [
      'another GitHub event (nothing stored)',
      'github',
      () =>
        hookRequest('github', '{}', {
          'X-GitHub-Event': 'issues',
          'X-Hub-Signature-256': sign('sha256', '{}'),
        }),
      '200 ignored',
    ],
    [
      'a Bitbucket diagnostics ping',
      'bitbucket',
      () =>
        hookRequest('bitbucket', '{}', {
          'X-Event-Key': 'diagnostics:ping',
          'X-Hub-Signature': sign('sha256', '{}'),
        }),
      '200 pong',
    ],
  ])('%s', async (_name, host, request, expected) => {
    const before = await fork(orm).count(VcsDelivery, {});
    expect(await receive(host, keys[host], request())).toBe(expected);
    expect(await fork(orm).count(VcsDelivery, {})).toBe(before);
  });

  it.each<[string, VcsHost, () => HookRequest]>([
    ['GitHub JSON, sha256', 'github', () => hookRequest('github', github, pushHeaders)],
    [
      'GitHub legacy sha1',
      'github',
      () =>
        hookRequest('github', github, {
          'X-Hub-Signature': sign('sha1', github),
          'X-GitHub-Delivery': 'sha1',
        }),
    ],
    [
      'GitHub form (signature over the encoded body)',
      'github',
      () => {
        const form = `payload=${encodeURIComponent(github)}`;
        return {
          ...hookRequest('github', form, {
            'X-Hub-Signature-256': sign('sha256', form),
            'X-GitHub-Delivery': 'form',
          }),
          contentType: 'application/x-www-form-urlencoded',
        };
      },
    ],
    [
      'a query payload (signed as its own bytes)',
      'github',
      () => ({
        ...hookRequest('github', '', {
          'X-Hub-Signature-256': sign('sha256', github),
          'X-GitHub-Delivery': 'query',
        }),
        queryPayload: github,
      }),
    ],
    [
      'GitLab Push Hook',
      'gitlab',
      () =>
        hookRequest('gitlab', fixtureText('gitlab-push'), {
          'X-Gitlab-Event': 'Push Hook',
          'X-Gitlab-Token': SECRET,
        }),
    ],
    [
      'Bitbucket Cloud repo:push',
      'bitbucket',
      () =>
        hookRequest('bitbucket', fixtureText('bitbucket-cloud-push'), {
          'X-Event-Key': 'repo:push',
          'X-Hub-Signature': sign('sha256', fixtureText('bitbucket-cloud-push')),
        }),
    ],
    [
      'the Bitbucket POST service (form payload)',
      'bitbucket',
      () => {
        const form = `payload=${encodeURIComponent(fixtureText('bitbucket-post-service'))}`;
        return {
          ...hookRequest('bitbucket', form, { 'X-Hub-Signature': sign('sha256', form) }),
          contentType: 'application/x-www-form-urlencoded',
        };
      },
    ],
  ])('%s: stored as one pending delivery', async (_name, host, request) => {
    const before = await fork(orm).count(VcsDelivery, {});
    expect(await receive(host, keys[host], request())).toBe('202 queued');
    expect(await fork(orm).count(VcsDelivery, {})).toBe(before + 1);
    const [latest] = await fork(orm).find(VcsDelivery, {}, { orderBy: { id: 'desc' }, limit: 1 });
    expect(latest?.status).toBe('pending');
    expect(latest?.commitCount).toBeGreaterThanOrEqual(2);
  });
});
