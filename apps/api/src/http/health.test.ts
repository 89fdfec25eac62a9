import type { ServerResponse } from 'node:http';
import type { Orm } from '@trackline/domain';
import { describe, expect, it } from 'vitest';
import { serveHealth } from './health.js';

/** A response that records what was written. */
function recorder() {
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 0,
    body: undefined as string | undefined,
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    end(body?: string) {
      res.body = body;
    },
  };
  return { res, headers };
}

/** An ORM whose one statement behaves as `execute` says (the real one is tested over HTTP). */
const ormWith = (execute: () => Promise<unknown>) =>
  ({ em: { fork: () => ({ getConnection: () => ({ execute }) }) } }) as unknown as Orm;

describe('serveHealth when the database fails', () => {
  it('answers 503 with no detail, and reports the error to the log', async () => {
    const { res, headers } = recorder();
    const logged: unknown[] = [];
    await serveHealth(
      ormWith(() => Promise.reject(new Error('connection refused'))),
      'GET',
      res as unknown as ServerResponse,
      (e) => logged.push(e),
    );
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body ?? '')).toEqual({ status: 'unavailable', database: 'unreachable' });
    expect(headers['cache-control']).toBe('no-store');
    expect(String(logged[0])).toContain('connection refused');
  });

  it('answers 503 when the database does not answer in time', async () => {
    const { res } = recorder();
    await serveHealth(
      ormWith(() => new Promise(() => {})),
      'GET',
      res as unknown as ServerResponse,
      () => {},
    );
    expect(res.statusCode).toBe(503);
  }, 10_000);
});
