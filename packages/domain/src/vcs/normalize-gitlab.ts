import { ZGitlabPush } from '@trackline/contracts';
import { parsePayload } from './parse-payload.js';
import { branchOfRef, identityTokens, type PushEvent, toPushCommits } from './push-event.js';

/** GitLab `Push Hook` (`object_kind: push`). */
export function normalizeGitlab(json: unknown): PushEvent {
  const push = parsePayload(ZGitlabPush, json, 'GitLab push');
  const branch = branchOfRef(push.ref);
  return {
    repository: push.project.path_with_namespace,
    commits: toPushCommits(push.commits, branch),
    // GitLab commits carry no username: only the pusher's (public) e-mail can match.
    pusher: [...identityTokens('email', push.user_email), ...identityTokens('login', push.user_username)],
  };
}
