import type { AppRouter } from '@trackline/api';
import { createTRPCClient, httpBatchLink, type TRPCClient, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export type TracklineCredentials =
  | { token: string }
  | { login: string; password: string }
  | Record<string, never>;

export type TracklineClientOptions = {
  /** Server root, e.g. `http://localhost:8080` (the client appends `/trpc`). */
  url: string;
  credentials?: TracklineCredentials;
  fetch?: typeof fetch;
};

function authorization(credentials: TracklineCredentials | undefined): string | undefined {
  if (!credentials) return undefined;
  if ('token' in credentials) return `Bearer ${credentials.token}`;
  if ('login' in credentials) {
    return `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64')}`;
  }
  return undefined;
}

/** A fully typed client: procedures, inputs and outputs are inferred from the server's router. */
export function createTracklineClient(options: TracklineClientOptions): TRPCClient<AppRouter> {
  const header = authorization(options.credentials);
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${options.url.replace(/\/$/, '')}/trpc`,
        // The server refuses batches of more calls (TRPC_MAX_BATCH in apps/api/src/auth/limits.ts).
        maxItems: 100,
        headers: () => (header ? { authorization: header } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}

export type TracklineClient = TRPCClient<AppRouter>;

/** The domain error code (`NOT_FOUND`, `ALREADY_EXISTS`...) of a failed call, if any. */
export function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { errorCode?: string } | undefined;
  return data?.errorCode;
}

export { TRPCClientError };
