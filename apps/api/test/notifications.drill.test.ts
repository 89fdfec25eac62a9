import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createIssue,
  createOrm,
  createProject,
  createWebhook,
  type DatabaseConfig,
  type Em,
  migrate,
  type Orm,
  seed,
} from '@trackline/domain';
import { createScratchDatabase, removeScratchDir, type ScratchDatabase } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor, basic, fork, TEST_DIALECT, TEST_PG_URL } from './harness.js';
import { startReceiver, startSmtpServer, type TestReceiver, type TestSmtp, waitUntil } from './notify-kit.js';

/**
 * The kill -9 drill: one command on an issue with 1,000 watchers makes 1,000 e-mails and 20 webhook
 * deliveries, sent by a real server process (`dist/main.js`) that is killed twice while sending:
 * once by its own fault injection right after the SMTP server accepted a message and before the
 * process recorded it, once from outside (SIGKILL) in the middle of the run. After the last
 * restart, every message has reached the SMTP server exactly once by Message-ID (resends carry the
 * same one) and every webhook delivery the receiver exactly once by delivery id.
 */
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const WATCHERS = 1000;
const HOOKS = 20;
const FAULT_LINE = 'notification fault injection';

type Child = { process: ChildProcess; url: string; exited: Promise<unknown>; output(): string };

function start(db: DatabaseConfig, env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      TRACKLINE_PROCESSES: '1',
      TRACKLINE_RATE_LIMIT: 'off',
      ...(db.kind === 'sqlite' ? { TRACKLINE_DB: db.file } : { DATABASE_URL: db.url }),
      TRACKLINE_NOTIFY_MERGE_SECONDS: '0',
      TRACKLINE_NOTIFY_POLL_MS: '50',
      TRACKLINE_NOTIFY_LEASE_MS: '1500',
      TRACKLINE_WEBHOOK_ALLOW_PRIVATE: 'on',
      TRACKLINE_WEBHOOK_RETRY_FIRST_MS: '100',
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({ process: child, url: `http://127.0.0.1:${port}`, exited, output: () => output });
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!/listening on/.test(output)) reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** A migrated, seeded database with the issue, its 1,000 watchers (each with an address) and 20 hooks. */
async function prepare(
  db: DatabaseConfig,
  receiver: TestReceiver,
  secrets: Map<string, string>,
): Promise<void> {
  const orm: Orm = await createOrm(db);
  try {
    await migrate(orm);
    await seed(orm, { adminPassword: 'root-password' });
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'DR', name: 'Drill' });
    const em = fork(orm);
    const run = (sql: string, params: unknown[] = []) => em.getConnection().execute(sql, params, 'run');
    const now = db.kind === 'sqlite' ? Date.now() : new Date();
    for (let i = 0; i < WATCHERS; i += 250) {
      const rows = Array.from({ length: Math.min(250, WATCHERS - i) }, (_, k) => i + k);
      await run(
        `insert into users (login, login_key, full_name, email, email_key, type, created_at, banned) values ${rows.map(() => "(?, ?, ?, ?, ?, 'user', ?, false)").join(', ')}`,
        rows.flatMap((n) => [
          `w${n}`,
          `w${n}`,
          `Watcher ${n}`,
          `w${n}@example.com`,
          `w${n}@example.com`,
          now,
        ]),
      );
    }
    await createIssue(fork(orm), root, { project: 'DR', summary: 'Watched by a thousand' });
    await run(
      "insert into issue_stars (issue_id, user_id) select i.id, u.id from issues i, users u where i.summary = 'Watched by a thousand' and u.login like 'w%' and u.type = 'user' and u.login <> 'root'",
    );
    // Observer in the project: every watcher reads the issue.
    await run(
      "insert into role_grants (user_id, role_id, project_id, scope_key) select u.id, r.id, p.id, 'p' || p.id from users u, roles r, projects p where u.login like 'w%' and r.name = 'Observer' and p.short_name = 'DR'",
    );
    for (let h = 0; h < HOOKS; h++) {
      const { secret } = await createWebhook(fork(orm) as Em, root, {
        name: `hook${h}`,
        url: `${receiver.url}/hook${h}`,
        projects: ['DR'],
        kinds: ['issue.changed'],
      });
      secrets.set(`/hook${h}`, secret);
    }
    // The issue's creation is told before the drill: only the drill's command is counted.
    await run("update notification_events set status = 'done'");
  } finally {
    await orm.close(true);
  }
}

async function count(db: DatabaseConfig, sql: string): Promise<number> {
  const orm = await createOrm(db);
  try {
    const [row] = await orm.em.fork().getConnection().execute<{ n: number }[]>(sql);
    return Number(row?.n);
  } finally {
    await orm.close(true);
  }
}

describe('kill -9 while 1,000 notifications are sent: each delivered exactly once', {
  timeout: 300_000,
}, () => {
  let smtp: TestSmtp;
  let receiver: TestReceiver;
  const secrets = new Map<string, string>();
  let db: DatabaseConfig;
  let dir: string | undefined;
  let scratch: ScratchDatabase | undefined;
  const children: Child[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    receiver = await startReceiver((path) => secrets.get(path));
    if (TEST_DIALECT === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'trackline-drill-'));
      db = { kind: 'sqlite', file: join(dir, 'drill.sqlite') };
    } else {
      scratch = await createScratchDatabase(TEST_PG_URL);
      db = { kind: 'postgresql', url: scratch.url };
    }
    await prepare(db, receiver, secrets);
  }, 120_000);
  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await smtp?.close();
    await receiver?.close();
    await scratch?.drop();
    if (dir) removeScratchDir(dir);
  });

  it('loses nothing and sends nothing twice across a crash between sending and recording, and a kill -9', async () => {
    const env = { TRACKLINE_SMTP_URL: smtp.url, TRACKLINE_SMTP_FROM: 'Drill <drill@example.com>' };
    // 1. Killed by its own hand right after the 150th accepted send, before recording it.
    const first = await start(db, { ...env, TRACKLINE_NOTIFY_FAULT_EXIT_AFTER_SENDS: '150' });
    children.push(first);
    const res = await fetch(`${first.url}/rest/issue/DR-1/execute`, {
      method: 'POST',
      headers: {
        authorization: basic('root', 'root-password'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'command=Priority+Critical',
    });
    expect(res.status).toBe(200);
    expect(await first.exited).toBe('SIGKILL');
    expect(first.output()).toContain(FAULT_LINE);
    const afterFault = smtp.messages.size;
    process.stdout.write(`fault: ${afterFault} distinct, ${smtp.arrivals.length} arrivals\n`);
    expect(afterFault).toBeGreaterThan(0);
    expect(afterFault).toBeLessThan(WATCHERS);
    // 2. Restarted, and killed from outside (kill -9) in the middle of the run.
    const second = await start(db, env);
    children.push(second);
    await waitUntil(
      () => smtp.messages.size >= afterFault + 200,
      60_000,
      () => `${smtp.messages.size} messages`,
    );
    second.process.kill('SIGKILL');
    await second.exited;
    const afterKill = smtp.messages.size;
    // 3. Restarted once more: it finishes the work the others left (their leases run out).
    const third = await start(db, env);
    children.push(third);
    try {
      await smtp.waitFor(WATCHERS, 120_000);
      await receiver.waitFor(HOOKS, 60_000);
    } catch (error) {
      // What the last process said: the reason it did not finish.
      process.stdout.write(third.output().slice(-4000));
      throw error;
    }
    // Nothing more arrives: no message is left to send twice.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const resent = smtp.arrivals.length - smtp.messages.size;
    process.stdout.write(
      `drill (${TEST_DIALECT}): ${afterFault} accepted before the fault, ${afterKill} before the kill -9, ` +
        `${smtp.messages.size} distinct messages, ${resent} resent under the same Message-ID\n`,
    );
    expect(smtp.messages.size).toBe(WATCHERS);
    const recipients = new Set([...smtp.messages.values()].map((m) => JSON.stringify(m.to)));
    expect(recipients.size).toBe(WATCHERS);
    // Only a message in flight when a process died may arrive again, and then under its own Message-ID.
    expect(resent).toBeLessThanOrEqual(60);
    expect(receiver.deliveries.size).toBe(HOOKS);
    expect(receiver.refused).toBe(0);
    expect(new Set(receiver.arrivals.map((a) => a.id)).size).toBe(HOOKS);
    third.process.kill('SIGTERM');
    await third.exited;
    expect(
      await count(
        db,
        "select count(*) as n from notification_messages where channel = 'email' and status = 'sent'",
      ),
    ).toBe(WATCHERS);
    expect(
      await count(
        db,
        "select count(*) as n from notification_messages where channel = 'inapp' and status = 'sent'",
      ),
    ).toBe(WATCHERS);
    expect(await count(db, "select count(*) as n from webhook_deliveries where status = 'delivered'")).toBe(
      HOOKS,
    );
  });
});
