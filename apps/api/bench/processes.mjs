// Scale-out on one machine: the mixed row (90% issue reads, 10% commands) against the API on
// PostgreSQL with TRACKLINE_PROCESSES=1 and then =2, in the same run and on the same database,
// with the CPU each side used (the server processes, PostgreSQL's backends). Prints JSON.
// Env: BENCH_PG_URL (postgres://postgres@127.0.0.1:5432), BENCH_SECONDS, BENCH_CONNECTIONS.
// Needs `pnpm build`.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { MAIN, NODE_FLAGS, processCpuMs } from './bench-support.mjs';
import { mixedWorkload } from './mixed-workload.mjs';
import { buildDatabase } from './seed-data.mjs';

const BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const NAME = `trackline_bench_procs_${process.pid}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: `${BASE}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

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

/** CPU ms used so far by every PostgreSQL process of this machine. */
function postgresCpuMs() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
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
    const pgBefore = postgresCpuMs();
    const result = await run(server.url, target);
    const serverCpuMs = pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - serverBefore;
    const postgresMs = postgresCpuMs() - pgBefore;
    const wallMs = DURATION * 1000;
    return {
      processes,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      // Cores used on average during the measured pass (of this machine's cores).
      serverCores: +(serverCpuMs / wallMs).toFixed(2),
      postgresCores: +(postgresMs / wallMs).toFixed(2),
    };
  } finally {
    await stop(server.child);
  }
}

await admin(`create database ${NAME}`);
try {
  const url = `${BASE}/${NAME}`;
  const seeded = await buildDatabase({ kind: 'postgresql', url });
  const { mixed } = mixedWorkload(seeded);
  const one = await measure(url, 1, mixed);
  const two = await measure(url, 2, mixed);
  console.log(JSON.stringify({ one, two, ratio: +(two.rps / one.rps).toFixed(3) }));
} finally {
  await admin(`drop database if exists ${NAME} with (force)`);
}
