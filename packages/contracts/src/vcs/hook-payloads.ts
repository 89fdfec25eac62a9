import { z } from 'zod';

/**
 * The push payloads the three hosts send, reduced to the fields we read (unknown keys are
 * dropped). Field paths follow the hosts' documented shapes; optional where a host omits them.
 */

/** GitHub caps `commits` at 2048; anything far beyond that is not a real push. */
export const MAX_PUSH_COMMITS = 10_000;

const commits = <T extends z.ZodType>(commit: T) => z.array(commit).max(MAX_PUSH_COMMITS);
/** Git object ids: 40 hex digits (SHA-1) or 64 (SHA-256); a little slack for other VCSs. */
const sha = z.string().min(1).max(100);

/** `X-GitHub-Event: push`, JSON body or the form field `payload`. */
/** Who pushed, as the host names them (compared with commit authors by `requirePusherMatch`). */
const identity = z.string().max(500).nullish();

export const ZGithubPush = z.object({
  ref: z.string(),
  repository: z.object({ full_name: z.string() }),
  /** `name` is the pusher's login. */
  pusher: z.object({ name: identity, email: identity }).nullish(),
  sender: z.object({ login: identity }).nullish(),
  commits: commits(
    z.object({
      id: sha,
      message: z.string(),
      timestamp: z.string(),
      url: z.string(),
      distinct: z.boolean().optional(),
      author: z.object({
        name: z.string(),
        email: z.string().nullish(),
        username: z.string().nullish(),
      }),
    }),
  ),
});
export type GithubPush = z.infer<typeof ZGithubPush>;

/** `X-Gitlab-Event: Push Hook`. */
export const ZGitlabPush = z.object({
  object_kind: z.literal('push'),
  ref: z.string(),
  project: z.object({ path_with_namespace: z.string() }),
  user_username: identity,
  /** Empty (or `[REDACTED]`) when the user keeps the e-mail private. */
  user_email: identity,
  commits: commits(
    z.object({
      id: sha,
      message: z.string(),
      timestamp: z.string(),
      url: z.string(),
      author: z.object({ name: z.string(), email: z.string().nullish() }),
    }),
  ),
});
export type GitlabPush = z.infer<typeof ZGitlabPush>;

/** Bitbucket Cloud 2.0, `X-Event-Key: repo:push`: one change per updated ref. */
/** A Bitbucket account: `uuid` and `account_id` are stable; nicknames are not unique. */
const bitbucketAccount = z.object({ uuid: identity, account_id: identity }).nullish();

export const ZBitbucketPush = z.object({
  repository: z.object({ full_name: z.string() }),
  actor: bitbucketAccount,
  push: z.object({
    changes: z.array(
      z.object({
        /** Null when the ref was deleted. */
        new: z.object({ type: z.string(), name: z.string() }).nullish(),
        commits: commits(
          z.object({
            hash: sha,
            message: z.string(),
            date: z.string(),
            /** `"Name <email>"`; `user` is present only for authors linked to an account. */
            author: z.object({ raw: z.string(), user: bitbucketAccount }),
            links: z
              .object({ html: z.object({ href: z.string() }) })
              .partial()
              .optional(),
          }),
        ).default([]),
      }),
    ),
  }),
});
export type BitbucketPush = z.infer<typeof ZBitbucketPush>;

/** The legacy Bitbucket "POST service": form-encoded `payload=<json>`. */
export const ZBitbucketPostService = z.object({
  canon_url: z.string(),
  repository: z.object({ absolute_url: z.string() }),
  /** The pusher's username. */
  user: identity,
  commits: commits(
    z.object({
      node: sha,
      raw_node: sha.optional(),
      raw_author: z.string(),
      /** The author's username, when the e-mail maps to an account. */
      author: identity,
      message: z.string(),
      branch: z.string().nullish(),
      timestamp: z.string(),
      utctimestamp: z.string().optional(),
    }),
  ),
});
export type BitbucketPostService = z.infer<typeof ZBitbucketPostService>;
