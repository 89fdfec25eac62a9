// Notifications benchmark: the real API (apps/api/dist/main.js, SQLite file, its notification
// worker on) with an SMTP server (Nodemailer's smtp-server) and a webhook receiver in this process.
// Measures, in one run: a command on an issue without watchers (the baseline), the same command on
// an issue with 1,000 watchers (acknowledged: the fan-out is not on the request path), the time
// until all 1,000 e-mails reached the SMTP server, and until 20 webhook deliveries reached the
// receiver. Prints one JSON object. Needs `pnpm build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { loadDomain, startApi } from './bench-support.mjs';

const domain = await loadDomain();
const WATCHERS = 1000;
const HOOKS = 20;
const ROUNDS = Number(process.env.TRACKLINE_BENCH_ROUNDS ?? 5);
const BASELINE = 20;
const ROOT = `Basic ${Buffer.from('root:root-password').toString('base64')}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

let mails = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      mails++;
      callback();
    });
  },
});
smtp.on('error', () => {});
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
let hooksReceived = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    hooksReceived++;
    res.statusCode = 204;
    res.end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-notify-'));
const file = join(dir, 'bench.sqlite');
let api;
try {
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  await domain.migrate(orm);
  await domain.seed(orm, { adminPassword: 'root-password' });
  const em = () => orm.em.fork();
  const root = await domain.loadActor(em(), await em().findOneOrFail(domain.User, { loginKey: 'root' }));
  for (const shortName of ['NW', 'NB', 'NH'])
    await domain.createProject(em(), root, { shortName, name: shortName });
  const watched = await domain.createIssue(em(), root, { project: 'NW', summary: 'Watched by a thousand' });
  const quiet = await domain.createIssue(em(), root, { project: 'NB', summary: 'Watched by no one' });
  const hooked = await domain.createIssue(em(), root, { project: 'NH', summary: 'Told to twenty hooks' });
  const run = (sql, params = []) => em().getConnection().execute(sql, params, 'run');
  for (let i = 0; i < WATCHERS; i += 250) {
    const rows = Array.from({ length: Math.min(250, WATCHERS - i) }, (_, k) => i + k);
    await run(
      `insert into users (login, login_key, full_name, email, email_key, type, created_at, banned) values ${rows.map(() => "(?, ?, ?, ?, ?, 'user', ?, 0)").join(', ')}`,
      rows.flatMap((n) => [
        `w${n}`,
        `w${n}`,
        `Watcher ${n}`,
        `w${n}@example.com`,
        `w${n}@example.com`,
        Date.now(),
      ]),
    );
  }
  await run(
    "insert into issue_stars (issue_id, user_id) select i.id, u.id from issues i, users u where i.summary = 'Watched by a thousand' and u.login like 'w%' and u.type = 'user'",
  );
  await run(
    "insert into role_grants (user_id, role_id, project_id, scope_key) select u.id, r.id, p.id, 'p' || p.id from users u, roles r, projects p where u.login like 'w%' and u.type = 'user' and r.name = 'Observer' and p.short_name = 'NW'",
  );
  for (let h = 0; h < HOOKS; h++)
    await domain.createWebhook(em(), root, {
      name: `bench${h}`,
      url: `${receiverUrl}/h${h}`,
      projects: ['NH'],
      kinds: ['issue.changed'],
    });
  await run("update notification_events set status = 'done'");
  await orm.close(true);

  api = await startApi(file, {
    env: {
      TRACKLINE_SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`,
      TRACKLINE_NOTIFY_MERGE_SECONDS: '0',
      TRACKLINE_NOTIFY_POLL_MS: '50',
      TRACKLINE_WEBHOOK_ALLOW_PRIVATE: 'on',
    },
  });
  // Each command changes its issue's Priority (from Normal: Major, Minor, Critical, Normal, ...).
  const priorities = ['Major', 'Minor', 'Critical', 'Normal'];
  const turns = new Map();
  const command = async (issue) => {
    const turn = turns.get(issue) ?? 0;
    turns.set(issue, turn + 1);
    const started = performance.now();
    const res = await fetch(`${api.url}/rest/issue/${issue}/execute`, {
      method: 'POST',
      headers: { authorization: ROOT, 'content-type': 'application/x-www-form-urlencoded' },
      body: `command=Priority+${priorities[turn % priorities.length]}`,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`execute: ${res.status} ${api.log?.() ?? ''}`);
    return performance.now() - started;
  };
  const until = async (done, timeoutMs) => {
    const limit = performance.now() + timeoutMs;
    while (!done()) {
      if (performance.now() > limit)
        throw new Error(`timed out: ${mails} mails, ${hooksReceived} hook deliveries`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  // Warm-up: the paths and statements of both kinds of command.
  for (let i = 0; i < 10; i++) await command(quiet.id);
  const baseline = [];
  for (let i = 0; i < BASELINE; i++) baseline.push(await command(quiet.id));
  const watchedAck = [];
  const emailMs = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = mails;
    const started = performance.now();
    watchedAck.push(await command(watched.id));
    // Meanwhile commands on the quiet issue keep their time (the worker keeps to its share).
    await until(() => mails >= before + WATCHERS, 60_000);
    emailMs.push(performance.now() - started);
  }
  const webhookMs = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = hooksReceived;
    const started = performance.now();
    await command(hooked.id);
    await until(() => hooksReceived >= before + HOOKS, 30_000);
    webhookMs.push(performance.now() - started);
  }
  const result = {
    watchers: WATCHERS,
    hooks: HOOKS,
    rounds: ROUNDS,
    baselineAckMs: round(median(baseline)),
    watchedAckMs: round(median(watchedAck)),
    watchedAckMaxMs: round(Math.max(...watchedAck)),
    ackRatio: round(median(watchedAck) / median(baseline)),
    emailsMs: round(median(emailMs)),
    emailsMaxMs: round(Math.max(...emailMs)),
    emailsPerSecond: Math.round(WATCHERS / (median(emailMs) / 1000)),
    webhooksMs: round(median(webhookMs)),
    webhooksMaxMs: round(Math.max(...webhookMs)),
  };
  console.log(JSON.stringify(result));
} finally {
  api?.child.kill('SIGTERM');
  smtp.close();
  receiver.close();
  if (!process.env.TRACKLINE_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  else console.error(`kept ${dir}`);
}
