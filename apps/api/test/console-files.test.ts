import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../src/http/page-csp.js';
import { startTestServer, type TestServer } from './harness.js';

/** The web console's files at `/` (a stand-in build folder) and `GET /health`. */
describe('the console at / and /health', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-console-'));
  let server: TestServer;
  const PAGE =
    '<!DOCTYPE html><html><head><script type="module" src="/assets/index-abc123.js"></script></head></html>';

  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1);');
    writeFileSync(join(dir, 'assets', 'index-abc123.js.map'), '{}');
    server = await startTestServer({ handler: { consoleDir: dir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page at / with the docs page CSP, revalidated at every load', async () => {
    const res = await server.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.text).toBe(PAGE);
    expect(res.headers.get('content-type')).toBe('text/html;charset=UTF-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const again = await server.request('GET', '/', {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('answers the console routes with the page and the hashed assets for a year', async () => {
    for (const path of ['/issue/PRJ-1', '/admin/users', '/issues']) {
      const res = await server.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.text).toBe(PAGE);
    }
    const asset = await server.request('GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript;charset=UTF-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await server.request('HEAD', '/assets/index-abc123.js')).text).toBe('');
  });

  it('serves no source map, no missing file and nothing outside the folder', async () => {
    for (const path of [
      '/assets/index-abc123.js.map',
      '/assets/other.js',
      '/..%2F..%2Fetc%2Fpasswd',
      '/%2e%2e/x.txt',
    ]) {
      expect((await server.request('GET', path)).status, path).toBe(404);
    }
    expect((await server.request('POST', '/')).status).toBe(404);
  });

  it('leaves the API paths to the API', async () => {
    const missing = await server.request('GET', '/rest/nothing-here', { accept: 'application/json' });
    expect(missing.status).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
    expect((await server.request('GET', '/trpc/nothing')).status).toBe(404);
  });

  it('GET /health answers 200 without credentials while the database answers', async () => {
    const ok = await server.request('GET', '/health');
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', database: 'ok' });
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect((await server.request('HEAD', '/health')).status).toBe(200);
  });
});

describe('without a console build', () => {
  it('answers / with 404', async () => {
    const server = await startTestServer({ handler: { consoleDir: join(tmpdir(), 'no-such-console-dir') } });
    try {
      expect((await server.request('GET', '/')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
