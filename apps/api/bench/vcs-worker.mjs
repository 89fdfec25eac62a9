// VCS worker, in process (no HTTP): the domain's receiveHook stores deliveries, the worker's
// runUntilIdle applies them; prints JSON with wall and CPU time (process.cpuUsage, so this
// process only: the number to compare between builds on a shared machine). Needs `pnpm build`.
// Two cases on fresh copies of one database (project BENCH, 500 issues, committer dev):
//   - small: 500 one-commit deliveries (`#BENCH-n comment`, a command that fails: the
//     webhook row's deliveries), CPU per delivery to receive and to apply;
//   - push: one push of 2,000 commits touching 500 issues (vcs.mjs's push), CPU to apply.
// Env: TRACKLINE_BENCH_DELIVERIES (500), TRACKLINE_BENCH_COMMITS (2000).
import { createHmac } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDomain, prepareVcsDatabase } from './bench-support.mjs';

const domain = await loadDomain();
const DELIVERIES = Number(process.env.TRACKLINE_BENCH_DELIVERIES ?? 500);
const COMMITS = Number(process.env.TRACKLINE_BENCH_COMMITS ?? 2000);
const ISSUES = 500;
const SECRET = 'bench-secret';
const COMMANDS = ['In Progress', 'tag vcs-bench', '', 'Fixed'];

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-vcs-worker-'));
const base = join(dir, 'base.sqlite');

const commit = (i, message) => ({
  id: i.toString(16).padStart(40, '0'),
  message,
  timestamp: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  url: `https://github.com/bench/repo/commit/${i}`,
  author: { name: 'Dev', email: 'dev@example.com', username: 'dev' },
});

/** A fresh copy of the database, `pushes` received, then applied; times of both. */
async function run(name, apiKey, pushes) {
  const file = join(dir, `${name}.sqlite`);
  copyFileSync(base, file);
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  const integration = await domain.findIntegrationByApiKey(orm.em.fork(), 'github', apiKey);
  const cpu = (since) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  let started = process.cpuUsage();
  for (const [i, push] of pushes.entries()) {
    const body = Buffer.from(JSON.stringify(push));
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': `${name}-${i}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    };
    await domain.receiveHook(orm.em.fork(), integration, {
      host: 'github',
      header: (n) => headers[n],
      contentType: 'application/json',
      body,
      queryPayload: null,
    });
  }
  const receiveCpuMs = cpu(started);
  started = process.cpuUsage();
  const wall = performance.now();
  const deliveries = await domain.createVcsWorker(orm).runUntilIdle();
  const applyMs = performance.now() - wall;
  const applyCpuMs = cpu(started);
  const effects = await orm.em
    .fork()
    .execute('select status, count(*) as n from vcs_effects group by status order by status');
  await orm.close(true);
  return {
    deliveries,
    receiveCpuMs: +receiveCpuMs.toFixed(1),
    applyMs: +applyMs.toFixed(1),
    applyCpuMs: +applyCpuMs.toFixed(1),
    effects: Object.fromEntries(effects.map((e) => [e.status, Number(e.n)])),
  };
}

try {
  const apiKey = await prepareVcsDatabase(domain, base, { issues: ISSUES, secret: SECRET });
  const push = (commits) => ({ ref: 'refs/heads/main', repository: { full_name: 'bench/repo' }, commits });
  const small = await run(
    'small',
    apiKey,
    Array.from({ length: DELIVERIES }, (_, i) => push([commit(i, `#BENCH-${(i % 200) + 1} comment`)])),
  );
  const big = await run('push', apiKey, [
    push(
      Array.from({ length: COMMITS }, (_, i) => {
        const command = COMMANDS[i % COMMANDS.length];
        return commit(i, `Change ${i}\n\n#BENCH-${(i % ISSUES) + 1}${command ? ` ${command}` : ''}`);
      }),
    ),
  ]);
  console.log(
    JSON.stringify(
      {
        benchmark: 'vcs-worker',
        small: {
          ...small,
          receiveCpuMsPerDelivery: +(small.receiveCpuMs / DELIVERIES).toFixed(3),
          applyCpuMsPerDelivery: +(small.applyCpuMs / DELIVERIES).toFixed(3),
        },
        push: { commits: COMMITS, issues: ISSUES, ...big },
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
