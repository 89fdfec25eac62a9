// Scale-out on one machine: the mixed row (90% issue reads, 10% commands) against the API on
// PostgreSQL with TRACKLINE_PROCESSES=1 and then =2, in the same run and on the same database,
// with the CPU each side used (the server processes, the database's PostgreSQL backends, the load
// generator). Prints JSON. Runs alone too: `node bench/processes.mjs`.
// Env: BENCH_PG_URL (postgres://postgres@127.0.0.1:5432), BENCH_SECONDS, BENCH_CONNECTIONS.
// Needs `pnpm build`.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { MAIN, NODE_FLAGS, processCpuMs } from './bench-support.mjs';
import { mixedWorkload } from './mixed-workload.mjs';
import { PG_BASE, pgAdmin } from './pg-admin.mjs';
import { buildDatabase } from './seed-data.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const NAME = `trackline_bench_procs_${process.pid}`;

/** Pids of the processes whose parent is `pid` (the cluster's workers). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU ms used so far by each PostgreSQL process of this machine (pid → ms), and which of them are
 * backends of the benchmark's database (their command line names it). The machine is shared: a
 * benchmark of another database (the search row, another session's) must not count as ours.
 */
function postgresCpu() {
  const all = new Map();
  const ours = new Set();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(entry, (Number(fields[11]) + Number(fields[12])) * 10);
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${NAME} `)) ours.add(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { all, ours };
}

/** CPU ms between two `postgresCpu()` readings: every PostgreSQL process, and the database's backends. */
function postgresSpent(before, after) {
  let all = 0;
  let ours = 0;
  for (const [pid, ms] of after.all) {
    const spent = ms - (before.all.get(pid) ?? 0);
    all += spent;
    if (after.ours.has(pid)) ours += spent;
  }
  return { all, ours };
}

/** The API with `processes` server processes; resolves once each of them listens. */
function start(url, processes) {
  const child = spawn(process.execPath, [...NODE_FLAGS, MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      TRACKLINE_PROCESSES: String(processes),
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      TRACKLINE_RATE_LIMIT: 'off',
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
      const ports = [...out.matchAll(/listening on http:\/\/[^:]+:(\d+)/g)].map((m) => m[1]);
      if (ports.length >= processes) {
        started = true;
        resolve({ child, url: `http://127.0.0.1:${ports[0]}` });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

function run(url, target) {
  let sequence = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        setupRequest: (req) => {
          const r = target.next(sequence++);
          return { ...req, method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body };
        },
      },
    ],
  });
}

async function measure(url, processes, target) {
  const server = await start(url, processes);
  try {
    await run(server.url, target); // warm-up, discarded
    const pids = [server.child.pid, ...childrenOf(server.child.pid)];
    const serverBefore = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const pgBefore = postgresCpu();
    // autocannon runs in this process: its CPU is the load generator's share of the machine.
    const loadBefore = process.cpuUsage();
    const result = await run(server.url, target);
    const load = process.cpuUsage(loadBefore);
    const serverCpuMs = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - serverBefore;
    const postgres = postgresSpent(pgBefore, postgresCpu());
    const loadMs = (load.user + load.system) / 1000;
    const wallMs = DURATION * 1000;
    const requests = result.requests.total;
    const cores = (ms) => +(ms / wallMs).toFixed(2);
    const perRequest = (ms) => +(ms / requests).toFixed(3);
    return {
      processes,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      // Cores used on average during the measured pass (of this machine's cores): the server
      // processes, the benchmark database's PostgreSQL backends, every PostgreSQL process of the
      // machine (others' included), and the load generator.
      serverCores: cores(serverCpuMs),
      postgresCores: cores(postgres.ours),
      postgresAllCores: cores(postgres.all),
      loadCores: cores(loadMs),
      // CPU ms per answered request, each side.
      cpuMsPerRequest: {
        server: perRequest(serverCpuMs),
        postgres: perRequest(postgres.ours),
        load: perRequest(loadMs),
      },
    };
  } finally {
    await stop(server.child);
  }
}

await pgAdmin(`create database ${NAME}`);
try {
  const url = `${PG_BASE}/${NAME}`;
  const seeded = await buildDatabase({ kind: 'postgresql', url });
  const { mixed } = mixedWorkload(seeded);
  const one = await measure(url, 1, mixed);
  const two = await measure(url, 2, mixed);
  console.log(JSON.stringify({ one, two, ratio: +(two.rps / one.rps).toFixed(3) }));
} finally {
  await pgAdmin(`drop database if exists ${NAME} with (force)`);
}
