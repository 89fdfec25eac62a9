import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  createIntegration,
  fixture,
  issueState,
  resultLines,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from './vcs-harness.js';

type Format = {
  name: string;
  host: 'github' | 'gitlab' | 'bitbucket';
  fixture: string;
  /** How the payload travels: raw JSON body, form field `payload`, or the `payload` query parameter. */
  via: 'json' | 'form' | 'query';
  /** The first commit's date as the comment quotes it. */
  timestamp: string;
  /** Host headers for the bytes actually sent (the signature covers exactly them). */
  headers(sent: string): Record<string, string>;
};

const FORMATS: Format[] = [
  {
    name: 'GitHub push, JSON, X-Hub-Signature-256',
    host: 'github',
    fixture: 'github-push',
    timestamp: '2024-03-11T10:12:31+01:00',
    via: 'json',
    headers: (sent) => ({
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature-256': sign('sha256', sent),
    }),
  },
  {
    name: 'GitHub push, form, legacy sha1 X-Hub-Signature',
    host: 'github',
    fixture: 'github-push',
    timestamp: '2024-03-11T10:12:31+01:00',
    via: 'form',
    headers: (sent) => ({
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature': sign('sha1', sent),
    }),
  },
  {
    name: 'GitHub push, payload query parameter',
    host: 'github',
    fixture: 'github-push',
    timestamp: '2024-03-11T10:12:31+01:00',
    via: 'query',
    headers: (sent) => ({ 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': sign('sha256', sent) }),
  },
  {
    name: 'GitLab Push Hook, X-Gitlab-Token',
    host: 'gitlab',
    fixture: 'gitlab-push',
    timestamp: '2024-03-12T09:40:02+01:00',
    via: 'json',
    headers: () => ({
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Token': SECRET,
      'Idempotency-Key': randomUUID(),
    }),
  },
  {
    name: 'GitLab Push Hook as a form field',
    host: 'gitlab',
    fixture: 'gitlab-push',
    timestamp: '2024-03-12T09:40:02+01:00',
    via: 'form',
    headers: () => ({ 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': SECRET }),
  },
  {
    name: 'Bitbucket Cloud repo:push, sha256 X-Hub-Signature',
    host: 'bitbucket',
    fixture: 'bitbucket-cloud-push',
    timestamp: '2024-03-13T08:30:00+00:00',
    via: 'json',
    headers: (sent) => ({
      'X-Event-Key': 'repo:push',
      'X-Request-UUID': randomUUID(),
      'X-Hub-Signature': sign('sha256', sent),
    }),
  },
  {
    name: 'Bitbucket POST service, form payload',
    host: 'bitbucket',
    fixture: 'bitbucket-post-service',
    timestamp: '2014-03-13T08:30:00+00:00',
    via: 'form',
    headers: (sent) => ({ 'X-Hub-Signature': sign('sha256', sent) }),
  },
  {
    name: 'Bitbucket POST service, payload query parameter',
    host: 'bitbucket',
    fixture: 'bitbucket-post-service',
    timestamp: '2014-03-13T08:30:00+00:00',
    via: 'query',
    headers: (sent) => ({ 'X-Hub-Signature': sign('sha256', sent) }),
  },
];

/** Sends a payload the way `format` says; returns the response. */
async function deliver(base: string, apiKey: string, format: Format, payload = fixture(format.fixture)) {
  const key = encodeURIComponent(apiKey);
  const path = `/rest/vcsHooksReceiver/${format.host}?apiKey=${key}`;
  if (format.via === 'query') {
    return call(base, 'POST', `${path}&payload=${encodeURIComponent(payload)}`, {
      auth: null,
      headers: format.headers(payload),
    });
  }
  const body = format.via === 'form' ? `payload=${encodeURIComponent(payload)}` : payload;
  const contentType = format.via === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  return call(base, 'POST', path, {
    auth: null,
    body,
    headers: { 'content-type': contentType, ...format.headers(body) },
  });
}

let server: VcsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(FORMATS)('$name', (format) => {
  it('is verified, stored and answered 202, then applied as each committer', async () => {
    server = await startVcsServer();
    await setUpScenario(server.orm);
    const { apiKey } = await createIntegration(server.url, { host: format.host, secret: SECRET });

    const res = await deliver(server.url, apiKey, format);
    expect(res.status, res.text).toBe(202);
    const receipt = res.json();
    expect(receipt).toMatchObject({ status: 'queued', delivery: expect.any(Number) });
    expect(res.headers.get('location')).toBe(
      `/rest/admin/vcsIntegration/webapp/delivery/${receipt.delivery}`,
    );
    expect(receipt.commits.slice(0, 2).map((c: { status: string }) => c.status)).toEqual([
      'pending',
      'pending',
    ]);

    const report = await waitForDelivery(server.url, 'webapp', receipt.delivery);
    expect(resultLines(report)).toEqual([
      'TL-1 comment: applied as alice',
      'TL-1 Fixed: applied as alice',
      'TL-2 comment: applied as bob',
      'TL-3 comment: applied as bob',
      'TL-3 tag performance: applied as bob',
    ]);
    const tl1 = await issueState(server.orm, 'TL-1');
    expect(tl1.state).toBe('Fixed');
    expect(tl1.comments).toHaveLength(1);
    const commit = report.commits[0];
    expect(tl1.comments[0]).toBe(
      `alice: Commit made by '''Alice Example''' on ''${format.timestamp}''\n${commit.url}\n\n{quote}${firstMessage(format)}{quote}`,
    );
    expect(await issueState(server.orm, 'TL-2')).toMatchObject({
      state: 'Submitted',
      comments: [expect.stringMatching(/^bob: Commit made by '''Bob Builder'''/)],
    });
    expect((await issueState(server.orm, 'TL-3')).tags).toEqual(['bob:performance']);
  });
});

/** The oldest commit's message as quoted (trailing newlines dropped); Bitbucket Cloud lists newest first. */
function firstMessage(format: Format): string {
  const json = JSON.parse(fixture(format.fixture));
  const commits = format.fixture === 'bitbucket-cloud-push' ? json.push.changes[0].commits : json.commits;
  const first = format.fixture === 'bitbucket-cloud-push' ? commits.at(-1) : commits[0];
  return String(first.message).replace(/\s+$/, '');
}
