import { ZBitbucketPostService, ZBitbucketPush } from '@trackline/contracts';
import { parsePayload } from './parse-payload.js';
import { identityTokens, type PushEvent } from './push-event.js';

type Account =
  | { uuid?: string | null | undefined; account_id?: string | null | undefined }
  | null
  | undefined;
const accountTokens = (account: Account) => identityTokens('bitbucket', account?.uuid, account?.account_id);

/** `Jane Doe <jane@example.com>` → name and e-mail; a bare name has no e-mail. */
export function splitRawAuthor(raw: string): { name: string; email: string | null } {
  const match = /^\s*(.*?)\s*<([^<>]*)>\s*$/.exec(raw);
  if (!match) return { name: raw.trim(), email: null };
  const name = match[1] || match[2] || '';
  return { name, email: match[2]?.trim() || null };
}

/** Bitbucket Cloud `repo:push`: commits per changed ref (deleted refs carry none), oldest first. */
export function normalizeBitbucketCloud(json: unknown): PushEvent {
  const push = parsePayload(ZBitbucketPush, json, 'Bitbucket repo:push');
  return {
    repository: push.repository.full_name,
    pusher: accountTokens(push.actor),
    commits: push.push.changes.flatMap((change) => {
      const branch = change.new?.type === 'tag' ? `refs/tags/${change.new.name}` : (change.new?.name ?? '');
      // Bitbucket lists a change's commits newest first; commands must apply in commit order.
      return [...change.commits].reverse().map((c) => {
        const author = splitRawAuthor(c.author.raw);
        return {
          sha: c.hash,
          message: c.message,
          url: c.links?.html?.href ?? '',
          authorName: author.name,
          authorEmail: author.email,
          timestamp: c.date,
          branch,
          authorIdentities: [...identityTokens('email', author.email), ...accountTokens(c.author.user)],
        };
      });
    }),
  };
}

/** `2012-05-30 03:58:56+00:00` (the POST service's utctimestamp) → ISO 8601 when it parses. */
function isoTimestamp(value: string): string {
  const iso = value.trim().replace(' ', 'T');
  return Number.isNaN(Date.parse(iso)) ? value : iso;
}

/** The legacy Bitbucket POST service (form `payload=`): one branch per commit. */
export function normalizeBitbucketPostService(json: unknown): PushEvent {
  const push = parsePayload(ZBitbucketPostService, json, 'Bitbucket POST service');
  const path = push.repository.absolute_url.replace(/^\/+|\/+$/g, '');
  const base = `${push.canon_url.replace(/\/+$/, '')}/${path}`;
  return {
    repository: path,
    pusher: identityTokens('login', push.user),
    commits: push.commits.map((c) => {
      const author = splitRawAuthor(c.raw_author);
      const sha = c.raw_node ?? c.node;
      return {
        sha,
        message: c.message,
        url: `${base}/commits/${sha}`,
        authorName: author.name,
        authorEmail: author.email,
        timestamp: isoTimestamp(c.utctimestamp ?? c.timestamp),
        branch: c.branch ?? '',
        authorIdentities: [...identityTokens('email', author.email), ...identityTokens('login', c.author)],
      };
    }),
  };
}
