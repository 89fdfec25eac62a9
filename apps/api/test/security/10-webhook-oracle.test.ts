import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createIntegration,
  fixture,
  resultLines,
  SECRET,
  setUpScenario,
  sign,
  startVcsServer,
  type VcsServer,
  waitForDelivery,
} from '../vcs/vcs-harness.js';

/**
 * The integration links TL only. A push references OT-1 (exists, in a project the
 * integration does not link), OT-99 (no such issue) and NOPE-1 (no such project): the
 * hook's caller must get one and the same answer for all three.
 */
let server: VcsServer;
let apiKey = '';

beforeAll(async () => {
  server = await startVcsServer();
  await setUpScenario(server.orm);
  apiKey = (await createIntegration(server.url, { name: 'gh', secret: SECRET })).apiKey;
});
afterAll(() => server.close());

function pushOf(message: string) {
  const push = JSON.parse(fixture('github-push'));
  push.commits = [{ ...push.commits[0], id: 'a'.repeat(40), message }];
  return JSON.stringify(push);
}

const deliver = (body: string, deliveryId: string) =>
  call(server.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
    auth: null,
    body,
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': deliveryId,
      'X-Hub-Signature-256': sign('sha256', body),
    },
  });

describe('hardening item 10: webhook results do not tell issues outside the integration from missing ones', () => {
  it('a redelivery reports one reason for an existing issue of another project and a missing one', async () => {
    const body = pushOf('Probe\n\n#OT-1 Fixed\n#OT-99 Fixed\n#NOPE-1 Fixed');
    const first = await deliver(body, 'probe-1');
    expect(first.status, first.text).toBe(202);
    await waitForDelivery(server.url, 'gh', first.json().delivery);
    const again = await deliver(body, 'probe-1');
    expect(again.status, again.text).toBe(200);
    expect(again.json().status).toBe('duplicate');
    const reason = "no such issue in the integration's projects";
    expect(resultLines(again.json())).toEqual(
      ['OT-1', 'OT-99', 'NOPE-1'].flatMap((id) => [
        `${id} comment: skipped (${reason})`,
        `${id} Fixed: skipped (${reason})`,
      ]),
    );
    expect(again.text).not.toContain('not linked');
  });

  it('the first answer (queued) is the same for both as well', async () => {
    const existing = await deliver(pushOf('Probe #OT-1 Fixed'), 'probe-2');
    const missing = await deliver(pushOf('Probe #OT-98 Fixed'), 'probe-3');
    const shape = (text: string) => text.replace(/OT-\d+/g, 'OT-n').replace(/"delivery":\d+/, '');
    expect(shape(existing.text)).toBe(shape(missing.text));
  });
});
