import { Role } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache, responseCacheKey } from '../src/rest/response-cache.js';
import { createToken, fork, JSON_ACCEPT, startTestServer, type TestServer, userWithRole } from './harness.js';

/**
 * The hot-path response cache, black box: a row changed behind the API's back (straight in
 * the database) stays invisible while an answer is cached, which proves a hit; any change made
 * through the API is visible on the very next read, which proves invalidation.
 */
const sneakDescription = async (server: TestServer, role: string, description: string) => {
  await fork(server.orm).nativeUpdate(Role, { nameKey: role.toLowerCase() }, { description });
};
const description = async (server: TestServer, user: string, role: string, token?: string) => {
  const res = await server.request('GET', `/rest/admin/role/${role}`, {
    ...(token ? { token } : { user }),
    accept: JSON_ACCEPT,
  });
  expect(res.status, res.text).toBe(200);
  return res.json().description as string;
};

describe('response cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ handler: { responseCache: { ttlMs: 60_000 } } });
    await userWithRole(server.orm, 'cache_dev', 'Developer');
    await userWithRole(server.orm, 'cache_admin', 'Admin');
  });
  afterAll(() => server.close());

  it('replays a repeated GET, and shows a change made through the API on the next read', async () => {
    await server.request('PUT', '/rest/admin/role/Cached?description=first', { user: 'root' });
    expect(await description(server, 'root', 'Cached')).toBe('first');
    await sneakDescription(server, 'Cached', 'changed behind the API');
    expect(await description(server, 'root', 'Cached')).toBe('first'); // served from memory
    const update = await server.request('POST', '/rest/admin/role/Cached?description=second', {
      user: 'root',
    });
    expect(update.status).toBe(200);
    expect(await description(server, 'root', 'Cached')).toBe('second');
  });

  it('never serves one caller’s answer to another', async () => {
    expect(await description(server, 'cache_admin', 'Developer')).toBe(
      (await fork(server.orm).findOneOrFail(Role, { nameKey: 'developer' })).description,
    );
    const res = await server.request('GET', '/rest/admin/role/Developer', {
      user: 'cache_dev',
      accept: JSON_ACCEPT,
    });
    expect(res.status).toBe(403);
  });

  it('refuses a revoked token at once, even for a cached URL', async () => {
    const token = await createToken(server, 'cache_admin', 'soon-revoked');
    expect(await description(server, 'cache_admin', 'Observer', token)).toBeTypeOf('string');
    const revoke = await server.request('DELETE', '/rest/user/token/soon-revoked', { user: 'cache_admin' });
    expect(revoke.status).toBe(200);
    const res = await server.request('GET', '/rest/admin/role/Observer', { token, accept: JSON_ACCEPT });
    expect(res.status).toBe(401);
  });

  it('applies a revoked grant at once', async () => {
    await userWithRole(server.orm, 'cache_pa', 'Project Admin');
    const read = () =>
      server.request('GET', '/rest/admin/role/Reporter', { user: 'cache_pa', accept: JSON_ACCEPT });
    expect((await read()).status).toBe(200);
    const revoke = await server.request('DELETE', '/rest/admin/user/cache_pa/role/Project%20Admin', {
      user: 'root',
    });
    expect(revoke.status).toBe(200);
    expect((await read()).status).toBe(403);
  });

  it('keeps answers per Accept header', async () => {
    const xml = await server.request('GET', '/rest/admin/role/Reporter', { user: 'root', accept: '' });
    const json = await server.request('GET', '/rest/admin/role/Reporter', {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(xml.text.startsWith('<?xml')).toBe(true);
    expect(json.json().name).toBe('Reporter');
  });
});

describe('response cache with limits and expiry', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      handler: { responseCache: { ttlMs: 150 }, limits: { requests: { perSecond: 0.01, burst: 3 } } },
    });
  });
  afterAll(() => server.close());

  it('charges cached answers against the rate limit', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await server.request('GET', '/rest/admin/role/Admin', { user: 'root' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('forgets answers after the TTL (changes no process announced)', async () => {
    const other = await startTestServer({ handler: { responseCache: { ttlMs: 150 } } });
    try {
      const read = async () =>
        (
          await other.request('GET', '/rest/admin/role/Observer', { user: 'root', accept: JSON_ACCEPT })
        ).json().description;
      const before = await read();
      await sneakDescription(other, 'Observer', 'after expiry');
      expect(await read()).toBe(before);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await read()).toBe('after expiry');
    } finally {
      await other.close();
    }
  });
});

describe('ResponseCache', () => {
  const answer = { userId: 1, headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{}') };

  it('drops an answer computed while the data changed', () => {
    const cache = new ResponseCache();
    const generation = cache.generation;
    cache.invalidate();
    cache.set('k', generation, answer);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', cache.generation, answer);
    expect(cache.get('k')).toBeDefined();
  });

  it('does not keep oversized bodies, and keys need credentials', () => {
    const cache = new ResponseCache({ maxBodyBytes: 4 });
    cache.set('k', cache.generation, { ...answer, body: Buffer.from('12345') });
    expect(cache.get('k')).toBeUndefined();
    expect(responseCacheKey({ accept: 'application/json' }, '/rest/admin/role')).toBeNull();
    expect(responseCacheKey({ authorization: 'Basic a', accept: '' }, '/x')).not.toEqual(
      responseCacheKey({ authorization: 'Basic b', accept: '' }, '/x'),
    );
  });
});
