import { ZGithubPush } from '@trackline/contracts';
import { parsePayload } from './parse-payload.js';
import { branchOfRef, identityTokens, type PushEvent, toPushCommits } from './push-event.js';

/** GitHub `push` (JSON or the form field `payload`: the same document). */
export function normalizeGithub(json: unknown): PushEvent {
  const push = parsePayload(ZGithubPush, json, 'GitHub push');
  const branch = branchOfRef(push.ref);
  return {
    repository: push.repository.full_name,
    commits: toPushCommits(push.commits, branch),
    // `pusher.name` is the pusher's login.
    pusher: [
      ...identityTokens('email', push.pusher?.email),
      ...identityTokens('login', push.pusher?.name, push.sender?.login),
    ],
  };
}
