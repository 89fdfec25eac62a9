import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createIntegration,
  fixture,
  fork,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../vcs/vcs-harness.js';

/** The REST comment limit (`MAX_COMMENT_LENGTH` in the contracts) and the marker of a cut. */
const LIMIT = 64_000;
const MARKER = '… [truncated]';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let server: VcsServer;
let apiKey = '';
let commits = 0;

beforeAll(async () => {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  apiKey = (await createIntegration(server.url, { name: 'gh', secret: SECRET })).apiKey;
});
afterAll(() => server.close());

async function push(messages: string[]) {
  const push = JSON.parse(fixture('github-push'));
  push.commits = messages.map((message) => ({
    ...push.commits[0],
    id: String(++commits).padStart(40, '0'),
    message,
  }));
  const body = JSON.stringify(push);
  const res = await call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
    auth: null,
    body,
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': sign('sha256', body),
    },
  });
  expect(res.status, res.text).toBe(202);
  return waitForDelivery(server.url, 'gh', res.json().delivery);
}

const commentsOf = async (id: string): Promise<string[]> => {
  const res = await call(server.url, 'GET', `/rest/issue/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json().comment.map((c: { text: string }) => c.text);
};

describe('hardening item 7: commit comments from hooks are cut at the REST comment limit', () => {
  it('a huge commit message becomes a comment of at most the limit, ending with the marker', async () => {
    const report = await push([`#TL-2\n${'x'.repeat(200_000)}`]);
    expect(report.status).toBe('done');
    expect(report.commits[0].results).toMatchObject([
      { issue: 'TL-2', command: 'comment', status: 'applied' },
    ]);
    const [text] = await commentsOf('TL-2');
    expect(text).toHaveLength(LIMIT);
    expect(text?.endsWith(`${'x'.repeat(100)}${MARKER}`)).toBe(true);
    expect(text).toContain('{quote}#TL-2\nxxx');
  });

  it('never cuts a character in half, whatever the cut position', async () => {
    const emoji = '\u{1F600}'.repeat(40_000);
    await push([`#TL-3\n${emoji}`, `#TL-3\na${emoji}`]);
    const texts = await commentsOf('TL-3');
    expect(texts).toHaveLength(2);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(LIMIT);
      expect(text.length).toBeGreaterThan(LIMIT - 2);
      expect(text.endsWith(`\u{1F600}${MARKER}`)).toBe(true);
      expect(text).not.toMatch(LONE_SURROGATE);
    }
  });

  it('a command longer than the REST command limit is refused, and not stored whole', async () => {
    const command = `tag ${'y'.repeat(5000)}`;
    const report = await push([`#TL-1 ${command}`]);
    expect(report.commits[0].results[1]).toMatchObject({
      issue: 'TL-1',
      status: 'failed',
      reason: 'command: must be at most 2000 characters',
    });
    const rows = await fork(server.orm).execute<{ command: string }[]>('select command from vcs_effects');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.command.length).toBeLessThanOrEqual(2000);
    expect(rows[0]?.command.endsWith(MARKER)).toBe(true);
  });

  it('a message within the limit is kept whole, without a marker', async () => {
    await push(['#TL-1 short message']);
    const texts = await commentsOf('TL-1');
    expect(texts.at(-1)).toMatch(/\{quote\}#TL-1 short message\{quote\}$/);
    expect(texts.at(-1)).not.toContain(MARKER);
  });
});
