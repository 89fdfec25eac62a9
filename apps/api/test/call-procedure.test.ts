import { createProject, type Orm } from '@trackline/domain';
import { actorFor, createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createProcedureCaller, type Outcome } from '../src/rest/call-procedure.js';
import { appRouter } from '../src/trpc/app.router.js';
import { t } from '../src/trpc/init.js';
import { callerContext } from './caller.js';

/**
 * The REST bridge runs a procedure's middlewares itself (`runChain` in call-procedure.ts) rather
 * than through tRPC's caller. Here both run the same procedures with the same input and must
 * agree: the data, or the error's tRPC code and message.
 */
const createCaller = t.createCallerFactory(appRouter);

describe('the REST procedure runner agrees with tRPC’s own caller', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    await userWithRole(orm, 'dev', 'Developer');
    await createProject(fork(orm), await actorFor(orm, 'root'), { shortName: 'RUN', name: 'Runner' });
  });
  afterAll(() => orm.close(true));

  const procedures = createProcedureCaller(appRouter, () => {});

  async function viaTrpc(login: string | null, path: string, input: unknown): Promise<Outcome> {
    const ctx = callerContext(orm, login ? await actorFor(orm, login) : null);
    let target = createCaller(ctx) as unknown as Record<string, unknown>;
    for (const segment of path.split('.')) target = target[segment] as Record<string, unknown>;
    try {
      return { ok: true, data: await (target as unknown as (i: unknown) => Promise<unknown>)(input) };
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      return { ok: false, status: 0, shape: { code: error.code, message: error.message } };
    }
  }

  async function viaRest(
    login: string | null,
    method: string,
    restPath: string,
    query = '',
  ): Promise<Outcome> {
    const ctx = callerContext(orm, login ? await actorFor(orm, login) : null);
    const matched = procedures.find(method, restPath);
    if (!matched) throw new Error(`no route for ${method} ${restPath}`);
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    const outcome = await procedures.call(ctx, matched, new URLSearchParams(query), body);
    if (outcome.ok) return outcome;
    const shape = outcome.shape as { message: string; data: { code: string } };
    return { ok: false, status: 0, shape: { code: shape.data.code, message: shape.message } };
  }

  it('answers the same data (a role, a project list)', async () => {
    expect(await viaRest('dev', 'GET', '/admin/role/Developer')).toEqual(
      await viaTrpc('dev', 'roles.get', { role: 'Developer' }),
    );
    const rest = await viaRest('root', 'GET', '/admin/project');
    expect(rest.ok && Array.isArray(rest.data) && rest.data.length).toBeGreaterThan(0);
  });

  it('fails the same way: unauthenticated, forbidden, missing, invalid input', async () => {
    for (const [login, path, input, restPath] of [
      [null, 'roles.get', { role: 'Developer' }, '/admin/role/Developer'],
      ['dev', 'roles.create', { role: 'Tester' }, '/admin/role/Tester'],
      ['root', 'roles.get', { role: 'Nope' }, '/admin/role/Nope'],
      ['root', 'roles.create', { role: 'x'.repeat(300) }, `/admin/role/${'x'.repeat(300)}`],
    ] as const) {
      const method = path === 'roles.create' ? 'PUT' : 'GET';
      const rest = await viaRest(login, method, restPath);
      const trpc = await viaTrpc(login, path, input);
      expect(rest.ok || trpc.ok).toBe(false);
      const [restShape, trpcShape] = [rest, trpc].map((o) =>
        o.ok ? null : (o.shape as { code: string; message: string }),
      );
      expect(restShape?.code).toBe(trpcShape?.code);
      // As trpc-to-openapi: a zod failure's message is generic on REST (the fields are listed in `data.issues`).
      if (restShape?.message !== 'Input validation failed')
        expect(restShape?.message).toBe(trpcShape?.message);
      else expect(trpcShape?.code).toBe('BAD_REQUEST');
    }
  });

  it('validates output as tRPC does: the parsed value (unknown keys dropped), or the same 500', async () => {
    const output = z.object({ a: z.string() });
    const meta = (path: `/${string}`) => ({ openapi: { method: 'GET' as const, path } });
    const router = t.router({
      extra: t.procedure
        .meta(meta('/extra'))
        .input(z.object({}))
        .output(output)
        .query(() => ({ a: 'kept', secret: 'dropped' })),
      wrong: t.procedure
        .meta(meta('/wrong'))
        .input(z.object({}))
        .output(output)
        .query(() => ({ a: 1 }) as unknown as { a: string }),
    });
    const runner = createProcedureCaller(router, () => {});
    const caller = t.createCallerFactory(router)(callerContext(orm, null));
    const run = async (path: string) => {
      const matched = runner.find('GET', path);
      if (!matched) throw new Error(`no route ${path}`);
      return runner.call(callerContext(orm, null), matched, new URLSearchParams(), undefined);
    };
    expect(await run('/extra')).toEqual({ ok: true, data: { a: 'kept' } });
    expect(await caller.extra({})).toEqual({ a: 'kept' });
    const rest = await run('/wrong');
    const trpc = await caller.wrong({}).then(
      () => null,
      (error: TRPCError) => ({ code: error.code, message: error.message }),
    );
    expect(trpc).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' });
    // The REST shape names the failing fields (the error formatter's rule for any zod cause).
    expect(rest).toMatchObject({
      ok: false,
      status: 500,
      shape: { data: { code: 'INTERNAL_SERVER_ERROR' } },
    });
  });
});
