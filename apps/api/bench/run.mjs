// `./trackline bench`: Trackline against a bare node:http server returning the same bytes,
// both measured in this run on loopback with autocannon; results as ratios. Writes
// bench-results/bench.json. Server time comes from Trackline's Server-Timing header.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildDatabase } from './seed-data.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', '..');

function startProcess(args, env = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const port = /"port":(\d+)/.exec(out)?.[1] ?? /listening on http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out}`)));
  });
}

async function record(base, target) {
  const res = await fetch(base + target.path, {
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status >= 300) throw new Error(`${target.name}: ${res.status} ${body.toString().slice(0, 300)}`);
  const headers = {};
  for (const name of ['content-type', 'location'])
    if (res.headers.get(name)) headers[name] = res.headers.get(name);
  return { status: res.status, headers, body: body.toString('base64') };
}

function load(url, target) {
  let sequence = 0;
  return autocannon({
    url: url + target.path,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: DURATION,
    // Webhook deliveries must be new each time, or the receiver answers from its dedupe record.
    ...(target.uniqueDelivery
      ? {
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                headers: { ...req.headers, 'x-github-delivery': `bench-${process.pid}-${++sequence}` },
              }),
            },
          ],
        }
      : {}),
  });
}

const summary = (r) => ({
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts,
  non2xx: r.non2xx,
});

/** Sequential requests over varied inputs; the Server-Timing header gives pure server time. */
async function serverTimes(base, paths, headers) {
  const times = [];
  for (const path of paths) {
    const res = await fetch(base + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    times.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]));
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {
    samples: times.length,
    p50: +at(0.5).toFixed(3),
    p99: +at(0.99).toFixed(3),
    max: +times.at(-1).toFixed(3),
  };
}

/** Hardening item 1: a 1 MiB form body of 100,000 distinct keys (`k0=&k1=&...`, padded). */
function formBodyOf1MiB() {
  const body = Array.from({ length: 100_000 }, (_, i) => `k${i}=`).join('&');
  return body + 'x'.repeat(1024 * 1024 - body.length);
}

const quantiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    samples: sorted.length,
    p50: +at(0.5).toFixed(3),
    p99: +at(0.99).toFixed(3),
    max: +sorted.at(-1).toFixed(3),
  };
};

/** Sequential uploads of `body`: Trackline's Server-Timing, and the round trip for comparison with the bare server. */
async function uploadTimes(base, path, headers, body, count = 50) {
  const server = [];
  const roundTrip = [];
  let status = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(base + path, { method: 'PUT', headers, body });
    await res.arrayBuffer();
    roundTrip.push(performance.now() - started);
    status = res.status;
    const dur = /dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1];
    if (dur !== undefined) server.push(Number(dur));
  }
  return { status, server: server.length ? quantiles(server) : null, roundTrip: quantiles(roundTrip) };
}

const COMMANDS = [
  'State Fi',
  'Priority C',
  'for us',
  'tag re',
  'relates to P001-1',
  'Fixed Priority Major for user',
  'add Fix',
  'Type B',
  'Subsystem',
  'vo',
  '',
];
function assistPaths(kind, count) {
  const paths = [];
  for (let i = 0; i < count; i++) {
    const command = COMMANDS[i % COMMANDS.length];
    const caret = Math.max(0, command.length - (i % 3));
    const issue = `P${String((i % 50) + 1).padStart(3, '0')}-${(i % 200) + 1}`;
    paths.push(
      `/rest/command/${kind}?issueIds=${issue}&command=${encodeURIComponent(command)}&caret=${caret}&optionsLimit=15`,
    );
  }
  return paths;
}

/** The VCS push and import benchmarks each print one JSON object (their only stdout). */
function runJsonBench(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, script)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      resolve(JSON.parse(out.slice(out.indexOf('{'))));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-'));
try {
  console.log('bench: building the database (100 projects, 500 users, 10,000 issues)...');
  const started = Date.now();
  const { token, apiKey } = await buildDatabase(join(dir, 'bench.sqlite'));
  console.log(`bench: database ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const auth = { authorization: `Bearer ${token}` };
  const api = await startProcess([join(root, 'apps/api/dist/main.js')], {
    TRACKLINE_DB: join(dir, 'bench.sqlite'),
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // One token at full speed: the per-user rate limit would measure 429s.
    TRACKLINE_RATE_LIMIT: 'off',
  });
  const targets = [
    // No response cache: every answer below is computed (authentication, ORM, rendering).
    { name: 'GET one role (computed)', path: '/rest/admin/role/Developer', headers: auth },
    { name: 'GET projects (100, computed)', path: '/rest/admin/project', headers: auth },
    { name: 'GET one issue (computed)', path: '/rest/issue/P001-17', headers: auth },
    {
      name: 'command suggest',
      path: assistPaths('suggest', 1)[0],
      headers: { ...auth, accept: 'application/json' },
    },
    {
      name: 'command underline',
      path: assistPaths('underline', 1)[0],
      headers: { ...auth, accept: 'application/json' },
    },
    {
      name: 'webhook acknowledge',
      method: 'POST',
      path: `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': 'bench-record',
      },
      body: JSON.stringify({
        ref: 'refs/heads/main',
        repository: { full_name: 'bench/repo' },
        commits: [
          {
            id: 'b'.repeat(40),
            message: '#P001-1 comment',
            timestamp: '2026-11-01T10:00:00Z',
            url: 'https://example.com/c/1',
            author: { name: 'Bench', email: 'user11@example.com' },
          },
        ],
      }),
      uniqueDelivery: true,
    },
  ];
  const routes = {};
  for (const t of targets) routes[t.path] = await record(api.url, t);
  // The 1 MiB form upload is refused (401/400); the bare server answers it with the same bytes.
  const FORM_PATH = '/rest/issue';
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const formBody = formBodyOf1MiB();
  {
    const res = await fetch(api.url + FORM_PATH, { method: 'PUT', headers: form, body: formBody });
    const body = Buffer.from(await res.arrayBuffer());
    routes[FORM_PATH] = {
      status: res.status,
      headers: { 'content-type': res.headers.get('content-type') },
      body: body.toString('base64'),
    };
  }
  writeFileSync(join(dir, 'routes.json'), JSON.stringify(routes));
  const bare = await startProcess([join(here, 'bare-server.mjs'), join(dir, 'routes.json')]);

  const rows = [];
  for (const t of targets) {
    await load(api.url, { ...t }).then(() => undefined); // warm-up pass, discarded
    const trackline = summary(await load(api.url, t));
    const baseline = summary(await load(bare.url, t));
    rows.push({
      target: t.name,
      trackline,
      bare: baseline,
      throughputRatio: +(trackline.rps / baseline.rps).toFixed(3),
      p99Ratio: +(trackline.p99 / Math.max(baseline.p99, 1)).toFixed(2),
    });
  }
  const serverTime = {
    suggest: await serverTimes(api.url, assistPaths('suggest', 1000), auth),
    underline: await serverTimes(api.url, assistPaths('underline', 1000), auth),
  };
  const formUpload = {
    unauthenticated: await uploadTimes(api.url, FORM_PATH, form, formBody),
    authenticated: await uploadTimes(api.url, FORM_PATH, { ...form, ...auth }, formBody),
    bare: await uploadTimes(bare.url, FORM_PATH, form, formBody),
  };
  api.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');

  console.log(
    `\nautocannon, ${CONNECTIONS} connections, ${DURATION} s per target (loopback, 2 cores shared)\n`,
  );
  console.log(
    'target                         | trackline req/s  p50  p99 | bare req/s  p50  p99 | throughput ratio | errors/non2xx',
  );
  for (const r of rows) {
    console.log(
      `${r.target.padEnd(30)} | ${String(r.trackline.rps).padStart(15)} ${String(r.trackline.p50).padStart(4)} ${String(r.trackline.p99).padStart(4)} | ` +
        `${String(r.bare.rps).padStart(10)} ${String(r.bare.p50).padStart(4)} ${String(r.bare.p99).padStart(4)} | ` +
        `${String(r.throughputRatio).padStart(16)} | ${r.trackline.errors}/${r.trackline.non2xx}`,
    );
  }
  console.log('\nserver time (Server-Timing, 1000 sequential varied requests, ms):');
  for (const [k, v] of Object.entries(serverTime))
    console.log(`  ${k.padEnd(10)} p50 ${v.p50}  p99 ${v.p99}  max ${v.max}`);
  console.log(
    '\n1 MiB form body, 100,000 keys (50 sequential PUT /rest/issue, ms; target: under 100 ms server time):',
  );
  for (const [k, v] of Object.entries(formUpload)) {
    const server = v.server ? `server p50 ${v.server.p50}  p99 ${v.server.p99}  max ${v.server.max}  ` : '';
    console.log(
      `  ${k.padEnd(16)} ${v.status}  ${server}round trip p50 ${v.roundTrip.p50}  p99 ${v.roundTrip.p99}`,
    );
  }
  console.log('\nVCS push: 2,000 commits touching 500 issues (separate server and database)...');
  const vcs = await runJsonBench('vcs.mjs');
  console.log(
    `  acknowledged in ${vcs.ackMs} ms, fully applied in ${vcs.applyMs} ms (${vcs.commitsPerSecond} commits/s)`,
  );
  console.log(
    '\nImport: 10,000 issues, 100 per PUT /rest/import/{project}/issues, 5 fields and 2 comments each (separate server and database)...',
  );
  const imports = await runJsonBench('import.mjs');
  console.log(
    `  imported in ${imports.importMs} ms: ${imports.importPerSecond} issues/s (target 2,000); one-by-one PUT /rest/issue: ` +
      `${imports.single.perSecond} issues/s (sample of ${imports.single.sample}, extrapolated to ${imports.issues}: ` +
      `${imports.singleExtrapolatedMs} ms); import is ${imports.speedup}x faster (target 10x); per second of server CPU: ` +
      `${imports.importPerServerCpuSecond} imported vs ${imports.single.perServerCpuSecond} one by one`,
  );
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  const out = {
    date: new Date().toISOString(),
    connections: CONNECTIONS,
    seconds: DURATION,
    rows,
    serverTime,
    formUpload,
    vcs,
    imports,
  };
  writeFileSync(join(root, 'bench-results', 'bench.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log('\nwrote bench-results/bench.json');
  const failures = rows.filter((r) => r.trackline.errors > 0 || r.trackline.non2xx > 0);
  if (failures.length > 0) {
    console.error(`bench: errors or non-2xx answers on ${failures.map((f) => f.target).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
