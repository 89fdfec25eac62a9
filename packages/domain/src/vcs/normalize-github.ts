import { ZGithubPush } from '@trackline/contracts';
import { parsePayload } from './parse-payload.js';
import { branchOfRef, type PushEvent, toPushCommits } from './push-event.js';

/** GitHub `push` (JSON or the form field `payload`: the same document). */
export function normalizeGithub(json: unknown): PushEvent {
  const push = parsePayload(ZGithubPush, json, 'GitHub push');
  const branch = branchOfRef(push.ref);
  return { repository: push.repository.full_name, commits: toPushCommits(push.commits, branch) };
}
