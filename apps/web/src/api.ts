import { createTracklineClient, errorCodeOf, fieldIssuesOf } from '@trackline/client';
import { isNetworkError, watchedFetch } from './lib/connection';

/**
 * The console's one client: same-origin tRPC calls, authenticated by the session cookie the
 * login form sets (no token in the page). Its fetch watches the answers: a 401 shows the login
 * form, a network failure the "cannot reach the server" state (lib/connection.ts).
 */
export const trackline = createTracklineClient({ url: window.location.origin, fetch: watchedFetch });

/** `POST /rest/user/login` as a form: the server answers with the `JSESSIONID` cookie. */
export async function logIn(login: string, password: string): Promise<void> {
  const res = await fetch('/rest/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ login, password }),
    credentials: 'same-origin',
  });
  if (res.ok) return;
  let message = `Log in failed (${res.status})`;
  try {
    const body = (await res.json()) as { value?: string };
    if (body.value) message = body.value;
  } catch {
    // Not JSON: keep the status.
  }
  throw new Error(message);
}

export const isUnauthenticated = (error: unknown) => errorCodeOf(error) === 'UNAUTHENTICATED';

/**
 * Input names of the console's calls that the person never sees as such (the text they typed is
 * the command, the search or the comment): their messages read without the name in front.
 */
const UNSEEN_FIELDS = new Set(['command', 'filter', 'query', 'issues', 'comment', 'issue', 'caret']);

/** A person-readable message for a failed call: the server's, with the form fields it names. */
export function messageOf(error: unknown): string {
  if (isNetworkError(error)) return 'The server cannot be reached.';
  const issues = fieldIssuesOf(error);
  if (issues.length > 0)
    return issues
      .map((i) => (UNSEEN_FIELDS.has(i.field) ? i.message : `${i.field}: ${i.message}`))
      .join('; ');
  if (error instanceof Error) return error.message.replace(/^(command|filter|query): /, '');
  return String(error);
}

/** Uploads files to an issue (`POST /rest/issue/{id}/attachment`, multipart). */
export async function uploadAttachments(issue: string, files: readonly File[]): Promise<void> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  const res = await fetch(`/rest/issue/${encodeURIComponent(issue)}/attachment`, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!res.ok) {
    let message = `Upload failed (${res.status})`;
    try {
      message = ((await res.json()) as { value?: string }).value ?? message;
    } catch {
      // Not JSON.
    }
    throw new Error(message);
  }
}
