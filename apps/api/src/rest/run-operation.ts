import { DomainError } from '@trackline/domain';
import type { Context } from '../trpc/context.js';
import { domainErrorOf } from '../trpc/error-mapping.js';
import { checkRawInput, reportAdminRefusal, requireActor } from '../trpc/procedures.js';
import { describeZodIssues } from '../trpc/zod-issues.js';
import { type RestError, restErrorOf } from './error-writer.js';
import type { MatchedRoute } from './route-table.js';

/**
 * Which outputs `/rest` checks against their operation's schema: `all` (tests, development: a
 * contract drift fails there), or `untrusted`, every output but those an operation declares as
 * built from typed rows by our own code (`.output(schema, { trusted: true })`: the legacy issue
 * DTOs, whose zod check copied each page of 50 issues once more, 0.5 MiB, and took a third of
 * the page's work in-process). The server passes `untrusted` only with NODE_ENV=production.
 */
export type OutputChecks = 'all' | 'untrusted';

/** What an operation answered: its output (validated), or the error to write. */
export type Outcome = { ok: true; data: unknown } | { ok: false; error: RestError };

/** Path segments arrive percent-encoded; names may hold spaces (`/admin/role/Project%20Admin`). */
function decodePathInput(pathInput: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(pathInput)) {
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      // A stray '%' is taken literally.
      decoded[key] = value;
    }
  }
  return decoded;
}

/**
 * Runs the operation a REST request addresses, as `/trpc` runs it (trpc/procedures.ts): the
 * shared input check, the caller, the contract's input schema (strings made numbers where it
 * takes numbers), the use case, the output schema. Errors come back as the one error table
 * (contracts' `ERROR_TABLE`) gives them; anything unexpected is logged and answers 500.
 */
export async function runOperation(
  ctx: Context,
  matched: MatchedRoute,
  fields: Record<string, unknown> | undefined,
  logError: (error: unknown) => void,
  outputChecks: OutputChecks = 'all',
): Promise<Outcome> {
  const { route, pathInput } = matched;
  const raw = route.voidInput ? undefined : { ...fields, ...decodePathInput(pathInput) };
  try {
    checkRawInput(raw);
    const caller = route.operation.authed ? requireActor(ctx) : ctx;
    const input = route.parseInput(raw);
    if (!input.success) {
      const issues = describeZodIssues(input.error, raw);
      return {
        ok: false,
        error: restErrorOf(
          new DomainError(
            'VALIDATION_FAILED',
            issues.map((i) => `${i.field}: ${i.message}`).join('; '),
            issues,
          ),
        ),
      };
    }
    const result = await route.operation.run({ ctx: caller as never, input: input.data as never });
    if (outputChecks === 'untrusted' && route.operation.trustedOutput) return { ok: true, data: result };
    const output = route.operation.output.safeParse(result);
    if (!output.success) {
      logError(new Error(`Output validation failed (${route.procedurePath})`, { cause: output.error }));
      return { ok: false, error: restErrorOf(null) };
    }
    return { ok: true, data: output.data };
  } catch (cause) {
    const domain = domainErrorOf(cause);
    if (!domain) logError(cause);
    reportAdminRefusal(ctx.actor, route.meta, domain);
    return { ok: false, error: restErrorOf(domain) };
  }
}
