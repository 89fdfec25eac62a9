// VCS hook benchmark: one GitHub push of 2,000 commits touching 500 issues, sent to the real
// API (apps/api/dist/main.js, SQLite file, worker on). Prints JSON with the time to
// acknowledge (the 202) and the time until every commit is applied. Needs `pnpm build`.
// Env: TRACKLINE_BENCH_COMMITS (2000), TRACKLINE_BENCH_ISSUES (500), TRACKLINE_BENCH_PROFILE (a
// directory: the server runs with --cpu-prof and writes its profile there on exit).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const domain = await import(join(root, 'packages/domain/dist/index.js'));
const MAIN = join(root, 'apps/api/dist/main.js');
const COMMITS = Number(process.env.TRACKLINE_BENCH_COMMITS ?? 2000);
const ISSUES = Number(process.env.TRACKLINE_BENCH_ISSUES ?? 500);
const SECRET = 'bench-secret';
const ROOT = `Basic ${Buffer.from('root:root-password').toString('base64')}`;
// A realistic mix: state changes, tags, and plain references (comment only).
const COMMANDS = ['In Progress', 'tag vcs-bench', '', 'Fixed'];

/** Database with project BENCH (ISSUES issues), a committer and a GitHub integration; its apiKey. */
async function prepare(file) {
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  await domain.migrate(orm);
  await domain.seed(orm, { adminPassword: 'root-password' });
  const fork = () => orm.em.fork();
  const actor = async (login) =>
    domain.loadActor(fork(), await fork().findOneOrFail(domain.User, { loginKey: login }));
  const rootActor = await actor('root');
  await domain.createProject(fork(), rootActor, { shortName: 'BENCH', name: 'Bench' });
  for (let i = 1; i <= ISSUES; i++)
    await domain.createIssue(fork(), rootActor, { project: 'BENCH', summary: `issue ${i}` });
  await domain.createRole(fork(), rootActor, 'Committers');
  await domain.insertUser(fork(), { login: 'dev', email: 'dev@example.com', password: 'password-1' });
  await domain.grantRole(fork(), rootActor, 'dev', 'Developer', 'BENCH');
  await domain.grantRole(fork(), rootActor, 'dev', 'Committers');
  const { apiKey } = await domain.createVcsIntegration(fork(), rootActor, {
    name: 'bench',
    host: 'github',
    repository: 'bench/repo',
    projects: ['BENCH'],
    committersRole: 'Committers',
    secret: SECRET,
    // Synthetic pushes name no pusher: measure applying commands, as before item 13.
    requirePusherMatch: false,
  });
  await orm.close(true);
  return apiKey;
}

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

/** CPU time (ms) a process has used so far, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const PROFILE = process.env.TRACKLINE_BENCH_PROFILE;

function start(file) {
  const args = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, MAIN] : [MAIN];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      TRACKLINE_DB: file,
      TRACKLINE_RATE_LIMIT: 'off',
      VCS_POLL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const get = async (url) => {
  const res = await fetch(url, { headers: { authorization: ROOT, accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
};

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-vcs-'));
const file = join(dir, 'bench.sqlite');
let server;
try {
  const apiKey = await prepare(file);
  server = await start(file);
  const body = pushBody();
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

  const cpuBefore = cpuMs(server.child.pid);
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
  const serverCpuMs = cpuMs(server.child.pid) - cpuBefore;
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
