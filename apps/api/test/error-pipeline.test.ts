import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, ERROR_TABLE, type ErrorCode } from '@trackline/contracts';
import { DEFAULT_RESOURCE_LIMITS, DEFAULT_TRASH_DAYS, DomainError, type Em } from '@trackline/domain';
import { createTestOrm, fork } from '@trackline/domain/testing';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRestHandler } from '../src/rest/rest-handler.js';
import { trpcResponseMeta } from '../src/server.js';
import { type Context, createResponseHints } from '../src/trpc/context.js';
import { errorCodeOf, httpStatusOf, toTrpcError } from '../src/trpc/error-mapping.js';
import { publicProcedure, router } from '../src/trpc/procedures.js';
import { xmlError } from './harness.js';

/**
 * One error pipeline: the contracts' table is the only place a code gets its status, and every
 * code reaches a client with that status and its code on `/rest` (JSON and XML) and `/trpc`.
 * A router whose only procedure throws the code it is asked for is served by the real REST
 * and tRPC handlers.
 */

/** What the SQLite driver throws when the file stays locked past `busy_timeout`. */
const sqliteBusy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

const throwing = router({
  contended: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/contended' } })
    .input(z.object({}))
    .output(z.object({}))
    .query((): Record<string, never> => {
      throw sqliteBusy();
    }),
  fail: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/fail/{code}' } })
    .input(z.object({ code: z.enum(ERROR_CODES) }))
    .output(z.object({}))
    .query(({ input }): Record<string, never> => {
      throw new DomainError(input.code, `failed with ${input.code}`);
    }),
});

let server: Server;
let base = '';

beforeAll(async () => {
  const orm = await createTestOrm();
  const createContext = (transport: 'rest' | 'trpc') => async (): Promise<Context> => ({
    orm,
    em: fork(orm),
    reads: orm.em as Em,
    actor: null,
    authFailure: null,
    baseUrl: base,
    transport,
    response: createResponseHints(),
    request: { session: null, secure: false, queryKeys: new Set(), checkPassword: async () => false },
    resourceLimits: DEFAULT_RESOURCE_LIMITS,
    trashDays: DEFAULT_TRASH_DAYS,
  });
  const rest = createRestHandler({ router: throwing, createContext: createContext('rest') });
  const trpc = createHTTPHandler({
    router: throwing,
    basePath: '/trpc/',
    createContext: createContext('trpc'),
    responseMeta: trpcResponseMeta,
  });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://internal');
    if (url.pathname.startsWith('/rest/')) return void rest(req, res, url);
    return void trpc(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await orm.close(true);
  };
});

describe('the error table', () => {
  it.each(ERROR_CODES)('%s has the status tRPC gives its tRPC code', (code) => {
    const row = ERROR_TABLE[code];
    expect(getHTTPStatusCodeFromError(new TRPCError({ code: row.trpc }))).toBe(row.status);
    expect(httpStatusOf(code)).toBe(row.status);
  });

  it.each(ERROR_CODES)('%s survives the round trip through a tRPC error', (code) => {
    const error = toTrpcError(new DomainError(code, 'x'));
    expect(error && errorCodeOf(error)).toBe(code);
  });

  it('transport-only codes map to the domain code a client expects', () => {
    const cases: [TRPCError['code'], ErrorCode][] = [
      ['PARSE_ERROR', 'VALIDATION_FAILED'],
      ['METHOD_NOT_SUPPORTED', 'NOT_FOUND'],
      ['CONFLICT', 'CONFLICT'],
      ['TIMEOUT', 'INTERNAL'],
    ];
    for (const [trpcCode, expected] of cases)
      expect(errorCodeOf(new TRPCError({ code: trpcCode }))).toBe(expected);
  });
});

describe.each(ERROR_CODES)('%s on every transport', (code) => {
  const status = ERROR_TABLE[code].status;

  it('REST JSON: the status, the code and the message', async () => {
    const res = await fetch(`${base}/rest/fail/${code}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ value: `failed with ${code}`, code, status });
  });

  it('REST XML: the status and <error>message</error>', async () => {
    const res = await fetch(`${base}/rest/fail/${code}`, { headers: { accept: 'application/xml' } });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xmlError(await res.text())).toBe(`failed with ${code}`);
  });

  it('/trpc: the status and the code in the error data', async () => {
    const input = encodeURIComponent(JSON.stringify({ code }));
    const res = await fetch(`${base}/trpc/fail?input=${input}`);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error.data).toMatchObject({ errorCode: code, httpStatus: status });
  });
});

describe('lock contention that reached a transport', () => {
  const message = 'The database is busy with other writes; nothing was changed. Try again in a moment.';

  it('is 503 BUSY with Retry-After on REST, in JSON and XML, without the driver’s words', async () => {
    const json = await fetch(`${base}/rest/contended`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(503);
    expect(json.headers.get('retry-after')).toBe('1');
    expect(await json.json()).toEqual({ value: message, code: 'BUSY', status: 503 });
    const xml = await fetch(`${base}/rest/contended`);
    expect(xml.status).toBe(503);
    expect(xml.headers.get('retry-after')).toBe('1');
    expect(xmlError(await xml.text())).toBe(message);
  });

  it('is 503 BUSY with Retry-After on /trpc', async () => {
    const res = await fetch(`${base}/trpc/contended?input=${encodeURIComponent('{}')}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = await res.json();
    expect(body.error.data).toMatchObject({ errorCode: 'BUSY', httpStatus: 503 });
    expect(body.error.message).toBe(message);
  });
});
