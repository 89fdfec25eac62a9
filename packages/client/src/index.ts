import { createTRPCClient, httpBatchLink, type TRPCClient, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './generated/app-router.js';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** The typed view of an issue (`issues.view`, `issues.list`, `commands.execute`). */
export type IssueView = RouterOutputs['issues']['view'];
/** One field of an issue view: its kind, cardinality and values (with colours). */
export type IssueFieldView = IssueView['fields'][number];
/** A value of an issue's field: a bundle value with its colour (or null), a user, or a typed value. */
export type IssueFieldValue = IssueFieldView['values'][number];
/** The legacy issue representation (`issues.get`, `issues.search`): `field: [{name, value}]`. */
export type LegacyIssue = RouterOutputs['issues']['get'];
/** Underline, suggestions and previews of a command (`commands.underlineAndSuggestAndCommands`). */
export type CommandAssist = RouterOutputs['commands']['underlineAndSuggestAndCommands'];
/** One suggestion of the command or search assist. */
export type Suggestion = CommandAssist['suggest']['items'][number];
/** Every value each field of a project may take (`projects.fieldOptions`). */
export type FieldOptions = RouterOutputs['projects']['fieldOptions'];
/** The caller and the permissions they hold (`userProfiles.me`). */
export type Me = RouterOutputs['userProfiles']['me'];

export type TracklineCredentials =
  | { token: string }
  | { login: string; password: string }
  | Record<string, never>;

export type TracklineClientOptions = {
  /**
   * Server root, e.g. `http://localhost:8080` (the client appends `/trpc`). In a page served by
   * Trackline itself, `location.origin`: the session cookie of the login form then authenticates.
   */
  url: string;
  /** A permanent token or a login and password; none for a same-origin page with a session cookie. */
  credentials?: TracklineCredentials;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
};

/** Base64 of the UTF-8 bytes, in browsers and Node alike (no `Buffer`). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The `Authorization` header for the credentials, if any. */
export function authorizationOf(credentials: TracklineCredentials | undefined): string | undefined {
  if (!credentials) return undefined;
  if ('token' in credentials) return `Bearer ${credentials.token}`;
  if ('login' in credentials) return `Basic ${base64Utf8(`${credentials.login}:${credentials.password}`)}`;
  return undefined;
}

/** A fully typed client: procedures, inputs and outputs are inferred from the server's router. */
export function createTracklineClient(options: TracklineClientOptions): TracklineClient {
  const header = authorizationOf(options.credentials);
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${options.url.replace(/\/$/, '')}/trpc`,
        // The server refuses batches of more calls (TRPC_MAX_BATCH in apps/api/src/auth/limits.ts).
        maxItems: 100,
        // `X-Trackline-Client`: a header no HTML form can send and no other origin can add without a
        // CORS preflight (which the server never grants), so a page's session-cookie calls pass the
        // server's cross-site request check even where its Origin check cannot tell (a proxy that
        // rewrites Host, a browser without Sec-Fetch-Site).
        headers: () => ({ 'x-trackline-client': 'typed', ...(header ? { authorization: header } : {}) }),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}

export type TracklineClient = TRPCClient<AppRouter>;

/** The domain error code (`NOT_FOUND`, `VALIDATION_FAILED`...) of a failed call, if any. */
export function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { errorCode?: string } | undefined;
  return data?.errorCode;
}

/** The fields a refused call names (`[{field: 'command', message: '…'}]`), if any. */
export function fieldIssuesOf(error: unknown): { field: string; message: string }[] {
  if (!(error instanceof TRPCClientError)) return [];
  const data = error.data as { issues?: { field: string; message: string }[] } | undefined;
  return data?.issues ?? [];
}

/** The values of an issue's field by name (empty when the field is empty or absent). */
export function fieldValues(issue: Pick<IssueView, 'fields'>, name: string): IssueFieldValue[] {
  const key = name.toLowerCase();
  return issue.fields.find((f) => f.name.toLowerCase() === key)?.values ?? [];
}

export { TRPCClientError };
