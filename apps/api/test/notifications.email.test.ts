import {
  type Actor,
  createNotificationWorker,
  createProject,
  executeCommand,
  type NotificationWorkerOptions,
  updateNotificationSettings,
} from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../src/notifications/smtp-transport.js';
import { actorFor, fork, JSON_ACCEPT, startTestServer, type TestServer, userWithRole } from './harness.js';
import { startSmtpServer, type TestSmtp } from './notify-kit.js';

/** A header as it came over the wire (mailparser turns some into objects). */
const rawHeader = (
  mail: { headerLines: readonly { key: string; line: string }[] } | undefined,
  name: string,
) => mail?.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '') ?? '';

/**
 * Notification e-mail through Nodemailer to a real SMTP server (`smtp-server`, in this process):
 * the bodies, the threading and unsubscribe headers, the one-click unsubscribe, digests, who gets
 * no mail, and a resend after a crash between the server's acceptance and our record of it.
 */
describe('notification e-mail', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let root: Actor;
  let issue: string;
  let clock: number | undefined;
  const P = 'ML';
  const transport = () =>
    createSmtpTransport(smtp.url, 'Trackline <tl@example.com>', 'https://tracker.example.com');
  const run = async (options: Partial<NotificationWorkerOptions> = {}) => {
    const email = transport();
    try {
      return await createNotificationWorker(server.orm, {
        mergeWindowMs: 0,
        email,
        now: () => clock ?? Date.now(),
        ...options,
      }).runUntilIdle();
    } finally {
      email.close();
    }
  };
  const command = async (text: string, by: Actor = root, comment?: string) =>
    executeCommand(fork(server.orm), by, [issue], text, comment);
  const mailsTo = (address: string) =>
    [...smtp.messages.values()].filter((m) => m.to && JSON.stringify(m.to).includes(address));

  beforeAll(async () => {
    // This file drives the notification worker itself (its clock, its retry delays): the
    // server's own is off, as on a host that leaves the outbox to others.
    server = await startTestServer({ settings: { TRACKLINE_NOTIFY_WORKER: 'off' } });
    smtp = await startSmtpServer();
    root = await actorFor(server.orm, 'root');
    await createProject(fork(server.orm), root, { shortName: P, name: 'Mail' });
    for (const login of ['watcher', 'viewer', 'banned', 'noaddress', 'digester'])
      await userWithRole(server.orm, login, login === 'viewer' ? 'Reporter' : 'Developer', P);
    // An administrator bans through the legacy user update; one's own account cannot be.
    expect(
      (await server.request('POST', '/rest/admin/user/banned?banned=true', { user: 'root' })).status,
    ).toBe(200);
    expect(
      (await server.request('POST', '/rest/admin/user/watcher?banned=true', { user: 'watcher' })).status,
    ).toBe(403);
    await fork(server.orm).getConnection().execute("update users set email = null where login = 'noaddress'");
    const res = await server.request('PUT', `/rest/issue?project=${P}&summary=Mail+me`, { user: 'root' });
    issue = res.headers.get('location')?.split('/').pop() as string;
    for (const login of ['watcher', 'viewer', 'banned', 'noaddress'])
      await executeCommand(fork(server.orm), await actorFor(server.orm, login), [issue], 'star');
    await run();
    smtp.messages.clear();
    smtp.arrivals.length = 0;
  });
  afterAll(async () => {
    await smtp.close();
    await server.close();
  });

  it('sends one message per recipient with text and HTML bodies from one template, threaded per issue', async () => {
    await command('Priority Critical', root, 'Seen on <b>Safari</b> too');
    await run();
    const [mail] = mailsTo('watcher@example.com');
    expect(mail?.subject).toBe(`[${issue}] Mail me`);
    expect(mail?.from?.value).toEqual([{ name: 'Trackline', address: 'tl@example.com' }]);
    expect(mail?.text).toContain('Priority: Normal → Critical');
    expect(mail?.text).toContain('Seen on <b>Safari</b> too');
    expect(mail?.text).toContain(`https://tracker.example.com/issue/${issue}`);
    // The HTML is the same document, escaped.
    expect(mail?.html).toContain('<strong>Priority:</strong> Normal → Critical');
    expect(mail?.html).toContain('Seen on &lt;b&gt;Safari&lt;/b&gt; too');
    expect(mail?.messageId).toMatch(/^<trackline\.m\d+\.[\w-]+@tracker\.example\.com>$/);
    const thread = mail?.inReplyTo;
    expect(thread).toMatch(/^<trackline\.issue\d+\.[\w-]+@tracker\.example\.com>$/);
    expect(mail?.references).toBe(thread);
    expect(rawHeader(mail, 'list-unsubscribe')).toMatch(
      /^<https:\/\/tracker\.example\.com\/unsubscribe\?token=\d+\.[0-9a-f]{64}>$/,
    );
    expect(rawHeader(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // A second change is a new message in the same thread.
    await command('State Open');
    await run();
    const both = mailsTo('watcher@example.com');
    expect(both).toHaveLength(2);
    expect(new Set(both.map((m) => m.messageId)).size).toBe(2);
    expect(both[1]?.references).toBe(thread);
  });

  it('no mail to banned users nor to users without an address; a Reporter is not told of private fields', async () => {
    expect(mailsTo('banned@example.com')).toEqual([]);
    expect([...smtp.messages.values()].filter((m) => !m.to)).toEqual([]);
    const em = fork(server.orm);
    await em
      .getConnection()
      .execute("update custom_fields set is_private = true where name_key = 'priority'");
    try {
      smtp.messages.clear();
      await command('Priority Minor State In Progress');
      await run();
      expect(mailsTo('viewer@example.com')[0]?.text).not.toContain('Priority');
      expect(mailsTo('viewer@example.com')[0]?.text).toMatch(/State: [\w ]+ → In Progress/);
      expect(mailsTo('watcher@example.com')[0]?.text).toMatch(/Priority: \w+ → Minor/);
    } finally {
      await em
        .getConnection()
        .execute("update custom_fields set is_private = false where name_key = 'priority'");
    }
  });

  it('a resend after a crash between acceptance and record carries the same Message-ID', async () => {
    smtp.messages.clear();
    smtp.arrivals.length = 0;
    await command('Priority Major');
    // The first worker "dies" right after the server accepted each message: nothing recorded.
    await run({
      leaseMs: 100,
      afterSend: () => {
        throw new Error('killed after sending');
      },
      logError: () => {},
    }).catch(() => undefined);
    // The sends of the batch still in flight finish (and "die") too; then the leases run out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = [...smtp.arrivals];
    expect(first.length).toBeGreaterThan(0);
    await run();
    // Every message arrived twice under one Message-ID: the server keeps one of each.
    expect(smtp.arrivals.slice(first.length).sort()).toEqual([...first].sort());
    expect(smtp.messages.size).toBe(first.length);
  });

  it('marks user fields whose users are told as assignees (the seeded Assignee is); only user fields', async () => {
    expect(
      (
        await server.request('POST', '/rest/admin/customfield/field/Assignee?isAssignee=true', {
          user: 'root',
        })
      ).status,
    ).toBe(200);
    const refused = await server.request('POST', '/rest/admin/customfield/field/Priority?isAssignee=true', {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(refused.status).toBe(400);
    expect(refused.json().value).toBe('isAssignee: [ Priority ] is not a user field');
  });

  it('one-click unsubscribe: GET shows a page and changes nothing, POST switches e-mail off, a forged token is 400', async () => {
    const [mail] = mailsTo('watcher@example.com').slice(-1);
    const link = /<https:\/\/tracker\.example\.com(\/unsubscribe\?token=[^>]+)>/.exec(
      rawHeader(mail, 'list-unsubscribe'),
    )?.[1] as string;
    const page = await server.request('GET', link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post"');
    const watcher = await actorFor(server.orm, 'watcher');
    const settings = () =>
      server.request('GET', `/trpc/notifications.settings?input=${encodeURIComponent('{}')}`, {
        user: 'watcher',
        accept: JSON_ACCEPT,
      });
    expect((await settings()).json().result.data.email.mode).toBe('each');
    const forged = link.replace(/\.[0-9a-f]{4}/, '.0000');
    expect(
      (
        await server.request('POST', forged, {
          body: 'List-Unsubscribe=One-Click',
          contentType: 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(400);
    const done = await server.request('POST', link, {
      body: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(done.status).toBe(200);
    expect((await settings()).json().result.data.email.mode).toBe('off');
    smtp.messages.clear();
    await command('Priority Normal');
    await run();
    expect(mailsTo('watcher@example.com')).toEqual([]);
    expect(mailsTo('viewer@example.com')).toHaveLength(1);
    await updateNotificationSettings(fork(server.orm), watcher, { email: { mode: 'each' } });
  });

  it('a digest: one message with every issue changed in the period, sent when it ends', async () => {
    const digester = await actorFor(server.orm, 'digester');
    await updateNotificationSettings(fork(server.orm), digester, {
      email: { mode: 'digest', digestMinutes: 30 },
    });
    const other = (
      await server.request('PUT', `/rest/issue?project=${P}&summary=Second`, { user: 'root' })
    ).headers
      .get('location')
      ?.split('/')
      .pop() as string;
    for (const id of [issue, other]) await executeCommand(fork(server.orm), digester, [id], 'star');
    smtp.messages.clear();
    await command('Priority Show-stopper');
    await executeCommand(fork(server.orm), root, [other], 'State Open');
    await run();
    expect(mailsTo('digester@example.com')).toEqual([]);
    clock = Date.now() + 31 * 60_000;
    await run();
    clock = undefined;
    const digests = mailsTo('digester@example.com');
    expect(digests).toHaveLength(1);
    expect(digests[0]?.subject).toBe('Trackline: 2 issues changed');
    expect(digests[0]?.text).toContain(`${issue} Mail me`);
    expect(digests[0]?.text).toContain(`${other} Second`);
    // A digest is not a reply in an issue's thread.
    expect(digests[0]?.inReplyTo).toBeUndefined();
  });
});
