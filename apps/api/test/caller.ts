import {
  type Actor,
  DEFAULT_RESOURCE_LIMITS,
  DEFAULT_TRASH_DAYS,
  type Em,
  type Orm,
} from '@trackline/domain';
import { fork } from '@trackline/domain/testing';
import { TRPCError } from '@trpc/server';
import { appRouter } from '../src/trpc/app.router.js';
import { type Context, createResponseHints } from '../src/trpc/context.js';
import { errorCodeOf } from '../src/trpc/error-mapping.js';
import { t } from '../src/trpc/init.js';
import { operationsOf } from '../src/trpc/procedures.js';

/**
 * In-process calls of the app router (no HTTP), with a context built like `server.ts` builds
 * it for `/trpc`: for the permission suites, which assert decisions, not wire shapes.
 */
const createCaller = t.createCallerFactory(appRouter);

export function callerContext(orm: Orm, actor: Actor | null): Context {
  return {
    orm,
    em: fork(orm),
    reads: orm.em as Em,
    actor,
    authFailure: null,
    resourceLimits: DEFAULT_RESOURCE_LIMITS,
    trashDays: DEFAULT_TRASH_DAYS,
    baseUrl: 'http://trackline.test',
    transport: 'trpc',
    response: createResponseHints(),
    request: { session: null, secure: false, queryKeys: new Set(), checkPassword: async () => false },
  };
}

export type CallResult =
  | { ok: true; value: unknown; context: Context }
  | { ok: false; code: ReturnType<typeof errorCodeOf>; message: string; context: Context };

/** Calls the procedure at `path` (`issues.get`) as `actor`; errors come back as their domain code. */
export async function callProcedure(
  orm: Orm,
  actor: Actor | null,
  path: string,
  input: unknown,
): Promise<CallResult> {
  const context = callerContext(orm, actor);
  let target = createCaller(context) as unknown as Record<string, unknown>;
  for (const segment of path.split('.')) target = target[segment] as Record<string, unknown>;
  const call = target as unknown as (input: unknown) => Promise<unknown>;
  try {
    return { ok: true, value: await call(input), context };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return { ok: false, code: errorCodeOf(error), message: error.message, context };
  }
}

/** Every procedure path of the app router (`issues.get`, ...). */
export const procedurePaths = () => [...operationsOf(appRouter).keys()].sort();
