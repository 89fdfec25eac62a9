import { AsyncLocalStorage } from 'node:async_hooks';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  instanceofZodTypeCoercible,
  instanceofZodTypeObject,
  type OpenApiRouter,
  unwrapZodType,
} from 'trpc-to-openapi';

/**
 * Coercion of string inputs ("5" → 5) for `/rest` only.
 *
 * trpc-to-openapi coerces REST query strings by setting `coerce = true` on the procedures' own
 * zod schemas the first time a REST request reaches a procedure. Those schemas are shared with
 * `/trpc`, which would then accept "5" for a number too, so `/trpc` validation would depend on
 * whether a REST route had been called. Here each schema the adapter would coerce gets a
 * `coerce` flag that is true only while a REST request is being handled (an async-local
 * scope) and ignores the adapter's assignment: the same schema is strict on `/trpc` and
 * coercing on `/rest`, always.
 */
const restScope = new AsyncLocalStorage<true>();

/** Runs the REST adapter for one request: inside, coercible schemas coerce strings. */
export const withRestCoercion = <T>(handle: () => Promise<T>): Promise<T> => restScope.run(true, handle);

type ZodDef = { coerce?: boolean };
type ObjectLike = { shape: Record<string, unknown> };

/** Installs the transport-scoped flag on every schema the adapter would coerce. */
export function scopeCoercionToRest(router: OpenApiRouter): void {
  forEachOpenApiProcedure(
    router._def.procedures as Parameters<typeof forEachOpenApiProcedure>[0],
    ({ procedure }) => {
      const { inputParser } = getInputOutputParsers(procedure);
      const schema = unwrapZodType(inputParser as Parameters<typeof unwrapZodType>[0], true);
      if (instanceofZodTypeObject(schema)) scopeShape(schema as unknown as ObjectLike);
    },
  );
}

/** The same walk as the adapter's `coerceSchema`: coercible leaves, and nested objects. */
function scopeShape(schema: ObjectLike): void {
  for (const member of Object.values(schema.shape)) {
    const inner = unwrapZodType(member as Parameters<typeof unwrapZodType>[0], false);
    if (instanceofZodTypeCoercible(inner)) scopeFlag((inner as unknown as { _def: ZodDef })._def);
    else if (instanceofZodTypeObject(inner)) scopeShape(inner as unknown as ObjectLike);
  }
}

const scoped = new WeakSet<ZodDef>();

function scopeFlag(def: ZodDef): void {
  if (scoped.has(def)) return;
  scoped.add(def);
  // A schema written as `z.coerce.*` coerces on every transport, as its author asked.
  const always = def.coerce === true;
  Object.defineProperty(def, 'coerce', {
    get: () => always || restScope.getStore() === true,
    set: () => {},
    configurable: true,
    enumerable: true,
  });
}
