// VCS hook benchmark: one GitHub push of 2,000 commits touching 500 issues, sent to the real
// API (apps/api/dist/main.js, SQLite file, worker on). Prints JSON with the time to
// acknowledge (the 202) and the time until every commit is applied. Needs `pnpm build`.
// Env: TRACKLINE_BENCH_COMMITS (2000), TRACKLINE_BENCH_ISSUES (500), TRACKLINE_BENCH_PROFILE (a
// directory: the server runs with --cpu-prof and writes its profile there on exit).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDomain, prepareVcsDatabase, processCpuMs, startApi } from './bench-support.mjs';

const domain = await loadDomain();
const COMMITS = Number(process.env.TRACKLINE_BENCH_COMMITS ?? 2000);
const ISSUES = Number(process.env.TRACKLINE_BENCH_ISSUES ?? 500);
const SECRET = 'bench-secret';
const ROOT = `Basic ${Buffer.from('root:root-password').toString('base64')}`;
// A realistic mix: state changes, tags, and plain references (comment only).
const COMMANDS = ['In Progress', 'tag vcs-bench', '', 'Fixed'];

function pushBody() {
  const commits = Array.from({ length: COMMITS }, (_, i) => {
    const id = i.toString(16).padStart(40, '0');
    const command = COMMANDS[i % COMMANDS.length];
    return {
      id,
      message: `Change ${i}\n\nTouches the code behind the issue.\n#BENCH-${(i % ISSUES) + 1}${command ? ` ${command}` : ''}`,
      timestamp: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      url: `https://github.com/bench/repo/commit/${id}`,
      distinct: true,
      author: { name: 'Dev', email: 'dev@example.com', username: 'dev' },
    };
  });
  return JSON.stringify({ ref: 'refs/heads/main', repository: { full_name: 'bench/repo' }, commits });
}

const PROFILE = process.env.TRACKLINE_BENCH_PROFILE;

const start = (file) =>
  startApi(file, {
    nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
    env: { VCS_POLL_MS: '50' },
  });

const get = async (url) => {
  const res = await fetch(url, { headers: { authorization: ROOT, accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
};

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-vcs-'));
const file = join(dir, 'bench.sqlite');
let server;
try {
  const apiKey = await prepareVcsDatabase(domain, file, { issues: ISSUES, secret: SECRET });
  server = await start(file);
  const body = pushBody();
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

  const cpuBefore = processCpuMs(server.child.pid);
  const sent = performance.now();
  const res = await fetch(`${server.url}/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': 'bench-1',
      'x-hub-signature-256': signature,
    },
    body,
  });
  const receipt = await res.json();
  const ackMs = performance.now() - sent;
  if (res.status !== 202)
    throw new Error(`push answered ${res.status}: ${JSON.stringify(receipt).slice(0, 300)}`);

  // The summary list is cheap to poll; the full report is read once at the end.
  let summary;
  for (;;) {
    [summary] = await get(`${server.url}/rest/admin/vcsIntegration/bench/delivery?max=1`);
    if (summary.status === 'done' || summary.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const applyMs = performance.now() - sent;
  const serverCpuMs = processCpuMs(server.child.pid) - cpuBefore;
  const report = await get(`${server.url}/rest/admin/vcsIntegration/bench/delivery/${receipt.delivery}`);
  const statuses = {};
  for (const commit of report.commits)
    for (const r of commit.results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const serverApplyMs = Date.parse(summary.finishedAt) - Date.parse(summary.receivedAt);
  console.log(
    JSON.stringify(
      {
        benchmark: 'vcs-push',
        commits: COMMITS,
        issues: ISSUES,
        payloadBytes: Buffer.byteLength(body),
        status: summary.status,
        ackMs: +ackMs.toFixed(1),
        applyMs: +applyMs.toFixed(1),
        serverApplyMs,
        // Server CPU from the push to the last poll (polls included): contention-proof.
        serverCpuMs,
        commitsPerSecond: Math.round((COMMITS / applyMs) * 1000),
        effects: statuses,
      },
      null,
      2,
    ),
  );
  if (summary.status !== 'done' || statuses.failed) process.exitCode = 1;
} finally {
  server?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
