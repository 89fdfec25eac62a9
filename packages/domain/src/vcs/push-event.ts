import type { VcsHost } from '@trackline/contracts';

/** One commit of a push, whatever the host: what processing and the comment need. */
export type PushCommit = {
  sha: string;
  message: string;
  url: string;
  authorName: string;
  /** Null when the host gave none (the command then cannot be attributed). */
  authorEmail: string | null;
  /** As the host wrote it; quoted verbatim in the comment. */
  timestamp: string;
  /** Branch name (`refs/heads/` stripped); a tag keeps its full ref; '' when unknown. */
  branch: string;
  /** Who the host says wrote the commit, as identity tokens (see `identityTokens`). */
  authorIdentities?: string[];
};

/**
 * The one shape every host format is normalized to (and stored in the delivery row).
 * `pusher`: who the host says pushed, as identity tokens; absent in rows stored before it
 * existed (such a push matches no author).
 */
export type PushEvent = { repository: string; commits: PushCommit[]; pusher?: string[] };

/**
 * `kind:value` tokens (`email:`, `login:`, `bitbucket:`), lower-cased, for the values a host
 * gave. Commit author and pusher are the same person when they share a token. GitLab writes
 * `[REDACTED]` for hidden e-mails: not an identity.
 */
export function identityTokens(kind: string, ...values: (string | null | undefined)[]): string[] {
  return values.flatMap((value) => {
    const v = value?.trim().toLowerCase();
    return v && v !== '[redacted]' ? [`${kind}:${v}`] : [];
  });
}

/** Whether the host names the commit's author as the pusher (or sender) of the push. */
export function authorIsPusher(commit: PushCommit, pusher: readonly string[] | undefined): boolean {
  return commit.authorIdentities?.some((token) => pusher?.includes(token)) ?? false;
}

/** What a hook call is, from the host's event header (and, without one, the payload). */
export type HookEvent =
  | { kind: 'push'; name: string }
  | { kind: 'ping'; name: string }
  | { kind: 'other'; name: string };

export type { VcsHost };

/** `refs/heads/main` → `main`; other refs stay as they are. */
export const branchOfRef = (ref: string): string =>
  ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;

/** Commits as GitHub and GitLab both send them (`id`, `message`, `url`, `timestamp`, `author`). */
export function toPushCommits(
  commits: readonly {
    id: string;
    message: string;
    url: string;
    timestamp: string;
    author: { name: string; email?: string | null | undefined; username?: string | null | undefined };
  }[],
  branch: string,
): PushCommit[] {
  return commits.map((c) => ({
    sha: c.id,
    message: c.message,
    url: c.url,
    authorName: c.author.name,
    authorEmail: c.author.email || null,
    timestamp: c.timestamp,
    branch,
    authorIdentities: [
      ...identityTokens('email', c.author.email),
      ...identityTokens('login', c.author.username),
    ],
  }));
}
