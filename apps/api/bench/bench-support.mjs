// What the separate-server benchmarks share: the API started on a SQLite file, a process's CPU
// time from /proc, and the VCS benchmarks' database (project BENCH, a committer, an integration).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = join(root, 'apps/api/dist/main.js');
/** The V8 flags the server runs with (`./trackline start` passes the same). */
export const NODE_FLAGS = JSON.parse(readFileSync(join(root, 'apps/api/node-flags.json'), 'utf8'));
export const loadDomain = () => import(join(root, 'packages/domain/dist/index.js'));

/**
 * Waits until the server's text indexer (SQLite) has emptied its queue; ms waited. A database
 * written without a server (the benches' seed data) has every issue queued, and the server indexes
 * them in a process of its own after it starts: measured beside it, the first rows would share the
 * cores with that indexing.
 */
export async function waitForIndexer(dbFile) {
  const domain = await loadDomain();
  const orm = await domain.createOrm({ kind: 'sqlite', file: dbFile });
  const started = performance.now();
  try {
    for (;;) {
      const [row] = await orm.em.getConnection().execute('select count(*) as n from issue_fts_queue');
      if (Number(row?.n ?? 0) === 0) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await orm.close(true);
  }
}

/** The built API on `file` (loopback, any port, rate limit off); resolves when it listens. */
export function startApi(file, { nodeArgs = [], env = {} } = {}) {
  const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      TRACKLINE_DB: file,
      TRACKLINE_RATE_LIMIT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    child.stdout.on('data', (d) => {
      // Once listening, the server's log lines (one per request) are only kept as a short tail.
      out = started ? (out + d).slice(-4096) : out + d;
      if (started) return;
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) {
        started = true;
        resolve({ child, url: `http://127.0.0.1:${port}`, log: () => out });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** CPU time (ms) a process has used so far, from /proc (Linux; NaN elsewhere). */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (ms) of a process and of its child processes (the search engine's workers): /proc. */
export function processTreeCpuMs(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {}
  return children.reduce((sum, child) => sum + processTreeCpuMs(child), processCpuMs(pid));
}

/**
 * The VCS benchmarks' database at `file`: project BENCH with `issues` issues, a committer
 * `dev` (Developer there, and in the committers role) and a GitHub integration signed with
 * `secret`; its apiKey.
 */
export async function prepareVcsDatabase(domain, file, { issues, secret }) {
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  await domain.migrate(orm);
  await domain.seed(orm, { adminPassword: 'root-password' });
  const fork = () => orm.em.fork();
  const rootActor = await domain.loadActor(
    fork(),
    await fork().findOneOrFail(domain.User, { loginKey: 'root' }),
  );
  await domain.createProject(fork(), rootActor, { shortName: 'BENCH', name: 'Bench' });
  for (let i = 1; i <= issues; i++)
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
    secret,
    // Synthetic pushes name no pusher: measure applying commands.
    requirePusherMatch: false,
  });
  await orm.close(true);
  return apiKey;
}
