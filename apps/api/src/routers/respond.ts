import type { Context } from '../trpc/context.js';

/** Legacy create semantics: 201 with `Location: <base>/rest<path>` (path segments encoded). */
export function created<T>(ctx: Context, path: string, body: T): T {
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  ctx.response.status = 201;
  ctx.response.headers.Location = `${ctx.baseUrl}/rest${encoded}`;
  return body;
}

/** An absolute `/rest` URL for legacy `url` attributes. */
export const restUrl = (ctx: Context, ...segments: string[]) =>
  `${ctx.baseUrl}/rest/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
