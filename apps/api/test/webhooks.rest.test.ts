import { ZWebhookPayload } from '@trackline/contracts';
import {
  addRolePermission,
  createNotificationWorker,
  createProject,
  createRole,
  executeCommand,
  executeIssueCommand,
  listInbox,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookPoster, isNonPublicAddress } from '../src/notifications/webhook-http.js';
import { actorFor, fork, JSON_ACCEPT, startTestServer, type TestServer, userWithRole } from './harness.js';
import { startReceiver, type TestReceiver } from './notify-kit.js';

/**
 * Outgoing webhooks, administered through `/rest/admin/webhook` and delivered to a real HTTP
 * receiver that verifies every signature: the payload (its schema, only what the owner may read),
 * retries with backoff, the hook disabled after its retry period and its owner told, the delivery
 * log and redelivery, and the guarded client (no private addresses, no redirects).
 */
describe('outgoing webhooks', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  const secrets = new Map<string, string>();
  const P = 'WH';
  let issue: string;
  const run = (options: { allowPrivate?: boolean; retryForMs?: number } = {}) =>
    createNotificationWorker(server.orm, {
      mergeWindowMs: 0,
      webhooks: {
        ...createWebhookPoster({
          allowPrivate: options.allowPrivate ?? true,
          timeoutMs: 2000,
          baseUrl: 'https://t.example.com',
        }),
        firstRetryMs: 20,
        retryForMs: options.retryForMs ?? 60_000,
      },
    }).runUntilIdle();
  /** Runs the worker until `done` holds (retries come due meanwhile). */
  const runUntil = async (
    done: () => boolean | Promise<boolean>,
    options: Parameters<typeof run>[0] = {},
  ) => {
    const until = Date.now() + 20_000;
    for (;;) {
      await run(options);
      if (await done()) return;
      if (Date.now() > until) throw new Error('the worker never got there');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const register = async (name: string, query: string, user = 'hooker') => {
    const res = await server.request(
      'PUT',
      `/rest/admin/webhook/${name}?url=${encodeURIComponent(`${receiver.url}/${name}`)}&${query}`,
      {
        user,
        accept: JSON_ACCEPT,
      },
    );
    if (res.status === 201) secrets.set(`/${name}`, res.json().secret);
    return res;
  };

  beforeAll(async () => {
    // This file drives the notification worker itself (its clock, its retry delays): the
    // server's own is off, as on a host that leaves the outbox to others.
    server = await startTestServer({ settings: { TRACKLINE_NOTIFY_WORKER: 'off' } });
    receiver = await startReceiver((path) => secrets.get(path));
    const root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: P, name: 'Hooks' });
    // The hook's owner administers the project but reads no private field.
    await createRole(fork(server.orm), root, 'Hook admin', 'webhook owner');
    for (const p of ['READ_PROJECT', 'UPDATE_PROJECT', 'READ_ISSUE', 'READ_COMMENT'] as const)
      await addRolePermission(fork(server.orm), root, 'Hook admin', p);
    await userWithRole(server.orm, 'hooker', 'Hook admin', P);
    await userWithRole(server.orm, 'dev', 'Developer', P);
    const res = await server.request('PUT', `/rest/issue?project=${P}&summary=Hooked`, { user: 'root' });
    issue = res.headers.get('location')?.split('/').pop() as string;
    await run();
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  it('registers a hook in the legacy style (XML by default, JSON on Accept), showing the secret once', async () => {
    const res = await register('ci', 'projects=WH&kinds=issue.changed,comment.added');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/rest\/admin\/webhook\/ci$/);
    expect(res.json()).toMatchObject({
      name: 'ci',
      projects: [{ shortName: P }],
      kinds: [{ name: 'issue.changed' }, { name: 'comment.added' }],
      owner: 'hooker',
      enabled: true,
    });
    expect(res.json().secret).toMatch(/^[\w-]{40,}$/);
    const xml = await server.request('GET', '/rest/admin/webhook/ci', { user: 'hooker' });
    expect(xml.text).toMatch(
      /^<\?xml[^>]*\?><webhook name="ci" url="[^"]+\/ci" owner="hooker" enabled="true" createdAt="[^"]+"><projects><project shortName="WH"\/><\/projects><kinds><kind name="issue\.changed"\/><kind name="comment\.added"\/><\/kinds><\/webhook>$/,
    );
    expect(xml.text).not.toContain('secret');
    // Refusals: a bad URL, an unknown kind, and someone who does not administer the project.
    expect((await register('bad', 'url=ftp://x&projects=WH')).status).toBe(400);
    expect(
      (
        await server.request('PUT', '/rest/admin/webhook/bad?url=https%3A%2F%2Fu%3Ap%40h.example.com', {
          user: 'hooker',
        })
      ).status,
    ).toBe(400);
    const unknown = await register('bad2', 'projects=WH&kinds=issue.exploded');
    expect(unknown.status).toBe(400);
    expect(unknown.json().value).toMatch(/unknown event kind issue\.exploded/);
    expect((await register('theirs', 'projects=WH', 'dev')).status).toBe(403);
    expect((await server.request('GET', '/rest/admin/webhook/ci', { user: 'dev' })).status).toBe(404);
    expect(
      (await server.request('GET', '/rest/admin/webhook', { user: 'dev', accept: JSON_ACCEPT })).json(),
    ).toEqual([]);
    expect((await server.request('GET', '/rest/admin/webhook')).status).toBe(401);
  });

  it('delivers a signed payload of the chosen kinds, with only what the owner may read', async () => {
    const em = fork(server.orm);
    await em
      .getConnection()
      .execute("update custom_fields set is_private = true where name_key = 'priority'");
    try {
      await executeCommand(
        fork(server.orm),
        await actorFor(server.orm, 'dev'),
        [issue],
        'Priority Major State Open tag Later',
        'public remark',
      );
      await executeIssueCommand(fork(server.orm), await actorFor(server.orm, 'root'), {
        issue,
        comment: 'for developers only',
        group: 'developers-of-nothing',
      }).catch(() => undefined);
      await runUntil(() => receiver.deliveries.size >= 1);
    } finally {
      await em
        .getConnection()
        .execute("update custom_fields set is_private = false where name_key = 'priority'");
    }
    const [delivery] = [...receiver.deliveries.values()];
    expect(receiver.refused).toBe(0);
    const payload = ZWebhookPayload.parse(delivery?.payload);
    expect(payload).toMatchObject({
      delivery: delivery?.id,
      webhook: 'ci',
      issue: { id: issue, summary: 'Hooked', url: `https://t.example.com/issue/${issue}` },
      author: { login: 'dev' },
    });
    // The private Priority is not carried; nor is the tag (not a chosen kind, and not the owner's).
    expect(payload.parts).toEqual([
      { kind: 'issue.changed', fields: [{ name: 'State', oldValues: ['Submitted'], newValues: ['Open'] }] },
      { kind: 'comment.added', commentId: expect.any(Number), text: 'public remark', group: null },
    ]);
    expect(payload.event.kinds).toEqual(['issue.changed', 'comment.added']);
    expect(delivery?.event).toBe('issue.changed,comment.added');
  });

  it('retries with backoff until answered, logging each attempt; a redirect is a failed attempt', async () => {
    let calls = 0;
    receiver.setAnswer((path) => (path === '/ci' ? ([500, 302][calls++] ?? 204) : 204));
    const before = receiver.deliveries.size;
    await executeCommand(fork(server.orm), await actorFor(server.orm, 'dev'), [issue], 'State In Progress');
    await runUntil(() => receiver.deliveries.size > before);
    receiver.setAnswer(() => 204);
    const log = (
      await server.request('GET', '/rest/admin/webhook/ci/delivery?max=1', {
        user: 'hooker',
        accept: JSON_ACCEPT,
      })
    ).json();
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(log[0].log.map((a: { status?: number; error?: string }) => [a.status, a.error])).toEqual([
      [500, 'answered 500'],
      [302, 'answered 302'],
      [204, undefined],
    ]);
    expect(log[0].payload.delivery).toBe(String(log[0].id));
  });

  it('redelivers a delivery with the same body and delivery id and a new signature', async () => {
    const [last] = (
      await server.request('GET', '/rest/admin/webhook/ci/delivery?max=1', {
        user: 'hooker',
        accept: JSON_ACCEPT,
      })
    ).json();
    const arrivals = receiver.arrivals.length;
    const res = await server.request('POST', `/rest/admin/webhook/ci/delivery/${last.id}/redeliver`, {
      user: 'hooker',
      accept: JSON_ACCEPT,
    });
    expect(res.status).toBe(200);
    expect(res.json().status).toBe('pending');
    await runUntil(() => receiver.arrivals.length > arrivals);
    const again = receiver.arrivals.at(-1);
    expect(again?.id).toBe(String(last.id));
    expect(again?.body).toBe(JSON.stringify(last.payload));
    const after = (
      await server.request('GET', '/rest/admin/webhook/ci/delivery?max=1', {
        user: 'hooker',
        accept: JSON_ACCEPT,
      })
    ).json();
    expect(after[0].log.at(-1).redelivery).toBe(true);
    // One still waiting is not sent twice.
    await server.request('POST', `/rest/admin/webhook/ci/delivery/${last.id}/redeliver`, { user: 'hooker' });
    expect(
      (
        await server.request('POST', `/rest/admin/webhook/ci/delivery/${last.id}/redeliver`, {
          user: 'hooker',
        })
      ).status,
    ).toBe(409);
    await runUntil(
      async () =>
        (
          await server.request('GET', '/rest/admin/webhook/ci/delivery?max=1', {
            user: 'hooker',
            accept: JSON_ACCEPT,
          })
        ).json()[0].status === 'delivered',
    );
  });

  it('disables a hook that keeps failing past its retry period and tells its owner', async () => {
    const res = await register('down', 'projects=WH&kinds=issue.changed');
    expect(res.status).toBe(201);
    receiver.setAnswer((path) => (path === '/down' ? 503 : 204));
    await executeCommand(fork(server.orm), await actorFor(server.orm, 'dev'), [issue], 'State Open');
    const disabled = async () =>
      (
        await server.request('GET', '/rest/admin/webhook/down', { user: 'hooker', accept: JSON_ACCEPT })
      ).json().enabled === false;
    await runUntil(disabled, { retryForMs: 300 });
    receiver.setAnswer(() => 204);
    const hook = (
      await server.request('GET', '/rest/admin/webhook/down', { user: 'hooker', accept: JSON_ACCEPT })
    ).json();
    expect(hook.disabledReason).toMatch(/failed for 0 minutes \(answered 503\)/);
    const [delivery] = (
      await server.request('GET', '/rest/admin/webhook/down/delivery', {
        user: 'hooker',
        accept: JSON_ACCEPT,
      })
    ).json();
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toBeGreaterThanOrEqual(1);
    const inbox = await listInbox(fork(server.orm), await actorFor(server.orm, 'hooker'));
    expect(inbox.map((e) => e.system?.subject)).toContain('Webhook down was disabled');
    // A disabled hook's deliveries wait; enabled again, they go.
    const count = receiver.arrivals.filter((a) => a.path === '/down').length;
    await executeCommand(fork(server.orm), await actorFor(server.orm, 'dev'), [issue], 'State In Progress');
    await run();
    expect(receiver.arrivals.filter((a) => a.path === '/down').length).toBe(count);
    expect(
      (await server.request('POST', '/rest/admin/webhook/down?enabled=true', { user: 'hooker' })).status,
    ).toBe(200);
    await runUntil(() => receiver.arrivals.filter((a) => a.path === '/down').length > count);
  });

  it('refuses private and loopback addresses unless allowed', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '192.168.0.1',
      '::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'fd00::1',
    ])
      expect([address, isNonPublicAddress(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '2606:4700::1111', '::ffff:1.1.1.1'])
      expect([address, isNonPublicAddress(address)]).toEqual([address, false]);
    const poster = createWebhookPoster({
      allowPrivate: false,
      timeoutMs: 1000,
      baseUrl: 'https://t.example.com',
    });
    await expect(poster.post({ url: `${receiver.url}/ci`, headers: {}, body: '{}' })).rejects.toThrow(
      /127\.0\.0\.1, not a public address/,
    );
    await expect(poster.post({ url: 'http://localhost:9/x', headers: {}, body: '{}' })).rejects.toThrow(
      /not a public address/,
    );
    // Through the worker: the attempt is logged with the refusal and retried later.
    const before = receiver.arrivals.length;
    await executeCommand(fork(server.orm), await actorFor(server.orm, 'dev'), [issue], 'State Open');
    await run({ allowPrivate: false });
    expect(receiver.arrivals.length).toBe(before);
    const [last] = (
      await server.request('GET', '/rest/admin/webhook/ci/delivery?max=1', {
        user: 'hooker',
        accept: JSON_ACCEPT,
      })
    ).json();
    expect(last.status).toBe('pending');
    expect(last.lastError).toMatch(/not a public address/);
  });
});
