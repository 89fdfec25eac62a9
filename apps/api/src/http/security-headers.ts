import type { ServerResponse } from 'node:http';

/**
 * Headers on every answer: `nosniff`, so that no answer (a text/plain message echoing a name,
 * say) is ever sniffed into HTML; and `no-store` on everything under `/rest` and `/trpc` (answers
 * of authenticated calls, login, errors) so that no shared or browser cache keeps them. The
 * public OpenAPI document is the one cacheable answer.
 */
export function setSecurityHeaders(res: ServerResponse, pathname: string): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const isOpenApi = pathname === '/rest/openapi.json' || pathname === '/openapi.json';
  if (!isOpenApi && (pathname.startsWith('/rest/') || pathname.startsWith('/trpc/')))
    res.setHeader('Cache-Control', 'no-store');
}
