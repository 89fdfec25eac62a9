import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DomainError, type Em, type Orm } from '@trackline/domain';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { readCredentials } from './auth/credentials.js';
import { handleLogin } from './auth/login.route.js';
import { resolveActor } from './auth/resolve-actor.js';
import { LEGACY_XML } from './rest/legacy-xml.js';
import { negotiate } from './rest/negotiate.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { createRestHandler } from './rest/rest-handler.js';
import { renderXmlError } from './rest/xml.js';
import { appRouter } from './trpc/app.router.js';
import { type Context, createResponseHints } from './trpc/context.js';
import { HTTP_STATUS_BY_ERROR } from './trpc/error-mapping.js';

export type ServerOptions = { orm: Orm; logError?: (error: unknown) => void };

function baseUrlOf(req: IncomingMessage): string {
  const host = req.headers.host ?? 'localhost';
  // Only a well-formed Host is echoed back into `url` attributes and Location headers.
  return /^[A-Za-z0-9.[\]:-]+$/.test(host) ? `http://${host}` : 'http://localhost';
}

/** The request handler: `/rest/*`, `/trpc/*`, and the OpenAPI document. No listening here (tests inject it). */
export function createRequestHandler({ orm, logError = console.error }: ServerOptions) {
  async function createContext(req: IncomingMessage, transport: Context['transport']): Promise<Context> {
    const em = orm.em.fork() as Em;
    const { actor, failure } = await resolveActor(em, readCredentials(req.headers));
    return {
      orm,
      em,
      actor,
      authFailure: failure,
      baseUrl: baseUrlOf(req),
      transport,
      response: createResponseHints(),
    };
  }

  const rest = createRestHandler({
    router: appRouter,
    createContext: (req) => createContext(req, 'rest'),
    customXml: LEGACY_XML,
    logError,
  });
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req }) => createContext(req, 'trpc'),
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') logError(error.cause ?? error);
    },
  });
  let openApiCache: { base: string; body: string } | null = null;

  return async function handle(req: IncomingMessage, res: ServerResponse) {
    reportServerTime(res);
    const url = new URL(req.url ?? '/', 'http://internal');
    try {
      if (url.pathname === '/rest/openapi.json' || url.pathname === '/openapi.json') {
        const base = `${baseUrlOf(req)}/rest`;
        if (openApiCache?.base !== base) {
          openApiCache = { base, body: JSON.stringify(buildOpenApiDocument(appRouter, base)) };
        }
        res.setHeader('Content-Type', 'application/json;charset=UTF-8');
        return void res.end(openApiCache.body);
      }
      if (url.pathname === '/rest/user/login' && req.method === 'POST')
        return await handleLogin(orm, req, res, url);
      if (url.pathname.startsWith('/rest/')) return await rest(req, res, url);
      if (url.pathname.startsWith('/trpc/')) return await trpc(req, res);
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/xml;charset=UTF-8');
      res.end(renderXmlError(`No resource at ${url.pathname}.`));
    } catch (error) {
      if (!(error instanceof DomainError)) logError(error);
      if (res.headersSent) return void res.end();
      const status = error instanceof DomainError ? HTTP_STATUS_BY_ERROR[error.code] : 500;
      const message = error instanceof DomainError ? error.message : 'Internal server error';
      res.statusCode = status;
      // Same negotiation and shapes as the REST bridge (this path serves `/rest/user/login`).
      if (negotiate(req.headers.accept, 'xml') === 'json') {
        const code = error instanceof DomainError ? error.code : 'INTERNAL';
        res.setHeader('Content-Type', 'application/json;charset=UTF-8');
        return void res.end(JSON.stringify({ value: message, code, status }));
      }
      res.setHeader('Content-Type', 'application/xml;charset=UTF-8');
      res.end(renderXmlError(message));
    }
  };
}

/** `Server-Timing: app;dur=<ms>` on every response: what the benchmarks report as server time. */
function reportServerTime(res: ServerResponse) {
  const started = performance.now();
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent)
      res.setHeader('Server-Timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
    return end(...args);
  }) as ServerResponse['end'];
}

export function createServer(options: ServerOptions) {
  const handler = createRequestHandler(options);
  return createHttpServer((req, res) => void handler(req, res));
}
