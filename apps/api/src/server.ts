import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUSY_RETRY_AFTER_SECONDS,
  createFileAttachmentStore,
  createPostgresAttachmentStore,
  DEFAULT_RESOURCE_LIMITS,
  DEFAULT_TRASH_DAYS,
  DomainError,
  dialectOf,
  type Em,
  type Orm,
  type ResourceLimits,
  setSecurityEventSink,
} from '@trackline/domain';
import type { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import {
  type AttachmentOptions,
  attachmentRoute,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  handleAttachment,
} from './attachments/attachments.route.js';
import { createGuard, type LimitsOptions, TRPC_MAX_BATCH } from './auth/limits.js';
import { handleLogin } from './auth/login.route.js';
import { loadConsoleFiles } from './http/console-files.js';
import { isDocsPath, serveDocs } from './http/docs-page.js';
import { serveHealth } from './http/health.js';
import { createOriginCheck } from './http/origin-check.js';
import { createBaseUrl } from './http/public-url.js';
import { setSecurityHeaders } from './http/security-headers.js';
import { type Logger, silentLogger } from './log/logger.js';
import { type RequestContext, requestContext, requestIdOf } from './log/request-context.js';
import { createErrorLog, createRequestLog } from './log/request-log.js';
import { createSecurityLog } from './log/security-log.js';
import { handleUnsubscribe } from './notifications/unsubscribe.route.js';
import { restErrorOf, writeRestError } from './rest/error-writer.js';
import { LEGACY_XML } from './rest/legacy-xml.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { type InputLimits, REST_BODY_LIMIT } from './rest/request-body.js';
import { createRestHandler } from './rest/rest-handler.js';
import type { OutputChecks } from './rest/run-operation.js';
import { renderXmlError } from './rest/xml.js';
import { appRouter } from './trpc/app.router.js';
import { type Context, createResponseHints } from './trpc/context.js';
import { errorCodeOf, toTrpcError } from './trpc/error-mapping.js';
import { handleVcsHook, vcsHookHost } from './webhooks/vcs-hooks.route.js';

export type ServerOptions = {
  orm: Orm;
  logError?: (error: unknown) => void;
  /** Login throttling and per-user rate limits (per process); none when absent. `main.ts` passes the env's. */
  limits?: LimitsOptions;
  /** Parameters and nesting one REST request may carry; the defaults when absent. */
  inputLimits?: InputLimits;
  /** `PUBLIC_URL`: the base of absolute URLs in answers; the Host header (when valid) when absent. */
  publicUrl?: string | undefined;
  /** Per-user caps on tags and saved searches; the domain's defaults when absent. */
  resourceLimits?: ResourceLimits;
  /** Days a deleted project stays restorable (shown in the trash listing); the domain's default when absent. */
  trashDays?: number;
  /** Whether notification e-mail is sent (TRACKLINE_SMTP_URL); shown in the settings. */
  emailAvailable?: boolean;
  /**
   * The attachment store, size limit and quotas; absent (tests), or without a store, the store is
   * the default `serve.ts` opens on this database: PostgreSQL's own, or on SQLite a temporary
   * folder of this process.
   */
  attachments?: Partial<AttachmentOptions>;
  /** Called when a VCS hook delivery was stored (`main.ts` kicks its worker). */
  onVcsDelivery?: () => void;
  /** The structured log (security events); silent when absent. `main.ts` passes one on stdout. */
  logger?: Logger;
  /** The built web console (`apps/web/dist`), served at `/`; none when absent or not built. */
  consoleDir?: string | undefined;
  /**
   * `POST /rest/user/login?login&password`: the password in the query string, as the original
   * accepted it (default true); false refuses it with 400 (TRACKLINE_LOGIN_QUERY_PASSWORD=off).
   */
  loginQueryPassword?: boolean | undefined;
  /**
   * Which `/rest` outputs are checked against their schema: `all` when absent (tests); `main.ts`
   * passes `untrusted` under NODE_ENV=production (rest/run-operation.ts).
   */
  outputChecks?: OutputChecks | undefined;
  /**
   * `TRACKLINE_ALLOWED_ORIGINS`: other origins whose pages may send state-changing requests signed
   * in by the session cookie (http/origin-check.ts); this server's own origin always may.
   */
  allowedOrigins?: readonly string[] | undefined;
};

/** The request handler: `/rest/*`, `/trpc/*`, and the OpenAPI document. No listening here (tests inject it). */
export function createRequestHandler({
  orm,
  logError: logErrorOption,
  limits,
  resourceLimits = DEFAULT_RESOURCE_LIMITS,
  trashDays = DEFAULT_TRASH_DAYS,
  emailAvailable = false,
  onVcsDelivery,
  inputLimits,
  publicUrl,
  attachments,
  logger = silentLogger(),
  consoleDir,
  loginQueryPassword = true,
  outputChecks = 'all',
  allowedOrigins,
}: ServerOptions) {
  const consoleFiles = consoleDir ? loadConsoleFiles(consoleDir) : null;
  // Errors go to the structured log with their request's context (a caller may add its own sink).
  const errorLog = createErrorLog(logger);
  const logError = logErrorOption ?? errorLog;
  const trackRequest = createRequestLog(logger);
  let attachmentOptions: AttachmentOptions | undefined;
  const attachmentStore = (): AttachmentOptions => {
    attachmentOptions ??= {
      maxBytes: attachments?.maxBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES,
      quotas: attachments?.quotas,
      store:
        attachments?.store ??
        (dialectOf(orm) === 'postgresql'
          ? createPostgresAttachmentStore(orm)
          : createFileAttachmentStore(mkdtempSync(join(tmpdir(), 'trackline-attachments-')))),
    };
    return attachmentOptions;
  };
  const baseUrlOf = createBaseUrl(publicUrl);
  const security = createSecurityLog(logger);
  // The domain reports changes of authority (grants, tokens, passwords...) through this sink.
  setSecurityEventSink(orm.em as Em, (event) => security.changed(event));
  const guard = createGuard(limits, security);
  // Cross-site request forgery: a cookie-signed or credential-less change must come from our pages.
  const origins = createOriginCheck({ allowedOrigins, publicUrl });
  async function createContext(
    req: IncomingMessage,
    res: ServerResponse,
    transport: Context['transport'],
  ): Promise<Context> {
    // Forked on first use: a remembered caller and a read model need none (a fork was 3% of a
    // computed read).
    let forked: Em | undefined;
    const fork = () => (forked ??= orm.em.fork() as Em);
    const reads = orm.em as Em;
    try {
      origins.check(req);
    } catch (error) {
      throw transport === 'trpc' ? toTrpcError(error as DomainError) : error;
    }
    const resolved = await guard.authenticate({ reads, fork }, req, res, transport);
    const logged = requestContext.getStore();
    if (logged && resolved.actor) logged.user = resolved.actor.login;
    return {
      orm,
      get em() {
        return fork();
      },
      reads,
      actor: resolved.actor,
      authFailure: resolved.failure,
      request: guard.requestFacts(fork, req, res, transport, resolved),
      resourceLimits,
      trashDays,
      emailAvailable,
      baseUrl: baseUrlOf(req),
      transport,
      response: createResponseHints(),
    };
  }

  const rest = createRestHandler({
    router: appRouter,
    createContext: (req, res) => createContext(req, res, 'rest'),
    customXml: LEGACY_XML,
    logError,
    outputChecks,
    ...(inputLimits ? { inputLimits } : {}),
  });
  /** Contexts of `/trpc` POSTs, built before their body is read (see `authenticateTrpcFirst`). */
  const trpcContexts = new WeakMap<IncomingMessage, Promise<Context>>();
  /**
   * The tRPC adapter reads a POST body before it builds the context. Every procedure needs a
   * caller, so the caller is resolved first; without one (or when refused, e.g. 429) the body is
   * replaced by an empty input and never read: each call then answers 401 (or the refusal).
   */
  async function authenticateTrpcFirst(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const context = createContext(req, res, 'trpc');
    trpcContexts.set(req, context);
    const ctx = await context.catch(() => null);
    if (!ctx?.actor) (req as IncomingMessage & { body?: unknown }).body = '{}';
  }
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req, res }) => trpcContexts.get(req) ?? createContext(req, res, 'trpc'),
    maxBodySize: REST_BODY_LIMIT,
    maxBatchSize: TRPC_MAX_BATCH,
    responseMeta: trpcResponseMeta,
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') logError(error.cause ?? error);
    },
  });
  let openApiCache: { base: string; body: string } | null = null;

  /** Names the route of the request's log line (a pattern, never values of the path or query). */
  const routeIs = (route: string) => {
    const logged = requestContext.getStore();
    if (logged) logged.route = route;
  };

  /** Every request runs in its context (request id, client address) for the log lines it causes. */
  return function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    const context: RequestContext = { requestId, clientIp: guard.clientIp(req), security };
    trackRequest(req, res, context);
    return requestContext.run(context, () => serve(req, res));
  };

  async function serve(req: IncomingMessage, res: ServerResponse) {
    reportServerTime(res);
    const url = new URL(req.url ?? '/', 'http://internal');
    setSecurityHeaders(res, url.pathname);
    try {
      if (url.pathname === '/rest/openapi.json' || url.pathname === '/openapi.json') {
        routeIs(url.pathname);
        const base = `${baseUrlOf(req)}/rest`;
        if (openApiCache?.base !== base) {
          openApiCache = { base, body: JSON.stringify(buildOpenApiDocument(appRouter, base)) };
        }
        res.setHeader('Content-Type', 'application/json;charset=UTF-8');
        return void res.end(openApiCache.body);
      }
      if (url.pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
        routeIs('/health');
        return await serveHealth(orm, req.method, res, logError);
      }
      if (isDocsPath(url.pathname)) {
        if (serveDocs(req.method ?? 'GET', url.pathname, res)) return;
        throw new DomainError('NOT_FOUND', `No resource at ${url.pathname}.`);
      }
      if (url.pathname === '/rest/user/login' && req.method === 'POST') {
        routeIs('/rest/user/login');
        origins.check(req);
        return await handleLogin(orm, req, res, url, guard, { queryPassword: loginQueryPassword });
      }
      if (url.pathname === '/unsubscribe') {
        routeIs('/unsubscribe');
        if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
        return await handleUnsubscribe(orm, req, res, url);
      }
      const hookHost = vcsHookHost(url.pathname);
      if (hookHost !== null) {
        routeIs('/rest/vcsHooksReceiver/{host}');
        if (hookHost === 'unknown') throw DomainError.notFound('VCS host', url.pathname.split('/')[3] ?? '');
        if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
        return await handleVcsHook(orm, req, res, url, hookHost, () => onVcsDelivery?.());
      }
      const attachment = attachmentRoute(req.method, url.pathname, url.searchParams);
      if (attachment) {
        routeIs(
          url.pathname.startsWith('/_persistent/')
            ? '/_persistent/{name}'
            : `/rest/${attachment.kind === 'upload' ? `${attachment.mode}/{issue}/attachment` : 'issue/{issue}/attachment/{id}'}`,
        );
        // The caller first: without one, the upload is refused before its body is read.
        const ctx = await createContext(req, res, 'rest');
        if (!ctx.actor) throw DomainError.unauthenticated(ctx.authFailure ?? 'Authentication required.');
        const call = { em: ctx.em, actor: ctx.actor, baseUrl: ctx.baseUrl };
        try {
          return await handleAttachment(call, req, res, url, attachment, attachmentStore());
        } catch (error) {
          // The import form is an administrative route: its refusals go to the security log too.
          if (attachment.kind === 'upload' && attachment.mode === 'import' && isRefusal(error))
            security.accessDenied(ctx.actor.login, 'POST', '/rest/import/{issue}/attachment', error.message);
          throw error;
        }
      }
      if (url.pathname.startsWith('/rest/')) return await rest(req, res, url);
      if (url.pathname.startsWith('/trpc/')) {
        // The procedure paths (a batch: several, comma-separated) when they look like ones.
        const paths = url.pathname.slice('/trpc/'.length);
        routeIs(/^[\w.,]{1,200}$/.test(paths) ? `/trpc/${paths}` : '/trpc/…');
        if (req.method === 'POST') await authenticateTrpcFirst(req, res);
        return await trpc(req, res);
      }
      // The interfaces' own prefixes never fall through to the console's page: a client probing
      // `/api` (the original's newer interface) or a bare `/rest` gets a 404 it can read.
      if (isInterfacePath(url.pathname))
        throw new DomainError('NOT_FOUND', `No resource at ${url.pathname}.`);
      if (consoleFiles?.serve(req, res, url.pathname)) return;
      throw new DomainError('NOT_FOUND', `No resource at ${url.pathname}.`);
    } catch (error) {
      if (!(error instanceof DomainError)) logError(error);
      // The same writer as the REST bridge (this path serves login, hooks and unknown routes);
      // under `/api` JSON unless XML is asked for (the newer interface is JSON only).
      writeRestError(req, res, restErrorOf(error), isApiPath(url.pathname) ? 'json' : 'xml');
    }
  }
}

/**
 * Headers of a `/trpc` answer: the session cookie that login, logout and password changes set or
 * clear, and `Retry-After` when a call was refused as BUSY (lock contention past the retries).
 */
export function trpcResponseMeta({
  ctx,
  errors,
}: {
  ctx?: Pick<Context, 'response'> | undefined;
  errors: TRPCError[];
}): { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const cookie = ctx?.response.headers['Set-Cookie'];
  if (cookie) headers['Set-Cookie'] = cookie;
  if (errors.some((error) => errorCodeOf(error) === 'BUSY'))
    headers['Retry-After'] = String(BUSY_RETRY_AFTER_SECONDS);
  return { headers };
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
const isInterfacePath = (path: string) =>
  isApiPath(path) ||
  path === '/rest' ||
  path === '/trpc' ||
  path.startsWith('/rest/') ||
  path.startsWith('/trpc/');

const isRefusal = (error: unknown): error is DomainError =>
  error instanceof DomainError && error.code === 'PERMISSION_DENIED';

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

function methodNotAllowed(res: ServerResponse, allow: string) {
  res.statusCode = 405;
  res.setHeader('Allow', allow);
  res.setHeader('Content-Type', 'application/xml;charset=UTF-8');
  res.end(renderXmlError(`Method not allowed; use ${allow}.`));
}

export function createServer(options: ServerOptions) {
  const handler = createRequestHandler(options);
  return createHttpServer((req, res) => void handler(req, res));
}
