// Import benchmark: 10,000 issues through `PUT /rest/import/{project}/issues` (100 per request,
// sequential, as a migration script sends them), each with the required built-ins
// (numberInProject, summary, description, created, updated, reporterName), 5 fields (State,
// Priority, Type, Assignee, watcherName) and 2 comments; against the real API (SQLite file).
// Compared in the same run with one-by-one `PUT /rest/issue` creations: a sequential sample of
// TRACKLINE_BENCH_SINGLE (1,000) issues, extrapolated to the same number (each such creation
// carries only a summary and a description, so the comparison favours the one-by-one path).
// Prints JSON. Env: TRACKLINE_BENCH_IMPORT (10000); TRACKLINE_BENCH_IMPORT_NODE_ARGS: extra node
// flags of the server (for example `--cpu-prof --cpu-prof-dir=/tmp/prof`). Needs `pnpm build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDomain, processCpuMs, startApi } from './bench-support.mjs';

const domain = await loadDomain();
const ISSUES = Number(process.env.TRACKLINE_BENCH_IMPORT ?? 10_000);
const SINGLE = Number(process.env.TRACKLINE_BENCH_SINGLE ?? 1000);
const BATCH = 100;
const USERS = 50;
const ROOT = `Basic ${Buffer.from('root:root-password').toString('base64')}`;
const STATES = ['Submitted', 'Open', 'In Progress', 'Fixed', 'Verified'];
const PRIORITIES = ['Critical', 'Major', 'Normal', 'Minor'];
const TYPES = ['Bug', 'Feature', 'Task'];

async function prepare(file) {
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  await domain.migrate(orm);
  await domain.seed(orm, { adminPassword: 'root-password' });
  const fork = () => orm.em.fork();
  const rootActor = await domain.loadActor(
    fork(),
    await fork().findOneOrFail(domain.User, { loginKey: 'root' }),
  );
  for (const shortName of ['IMP', 'ONE'])
    await domain.createProject(fork(), rootActor, { shortName, name: `Bench ${shortName}` });
  for (let u = 1; u <= USERS; u++)
    await domain.insertUser(fork(), {
      login: `user${u}`,
      fullName: `User ${u}`,
      email: `user${u}@example.com`,
    });
  await orm.close(true);
}

const NODE_ARGS = (process.env.TRACKLINE_BENCH_IMPORT_NODE_ARGS ?? '').split(' ').filter(Boolean);
const start = (file) => startApi(file, { nodeArgs: NODE_ARGS, env: { NODE_ENV: 'production' } });

const T0 = Date.UTC(2015, 0, 1);
const esc = (s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xA;');
const field = (name, value) => `<field name="${name}"><value>${esc(String(value))}</value></field>`;
const user = (n) => `user${(n % USERS) + 1}`;

function issueXml(n) {
  const created = T0 + n * 60_000;
  return (
    `<issue>${field('numberInProject', n)}${field('summary', `Imported issue ${n}: crash on save #${n % 17}`)}` +
    `${field('description', `Steps to reproduce ${n}\n1. open\n2. save`)}${field('created', created)}` +
    `${field('updated', created + 30_000)}${field('reporterName', user(n))}` +
    `${field('State', STATES[n % STATES.length])}${field('Priority', PRIORITIES[n % PRIORITIES.length])}` +
    `${field('Type', TYPES[n % TYPES.length])}${field('Assignee', user(n + 1))}${field('watcherName', user(n + 2))}` +
    `<comment author="${user(n + 3)}" text="${esc(`First comment on ${n}\nwith two lines`)}" created="${created + 10_000}"/>` +
    `<comment author="${user(n + 4)}" text="${esc(`Second comment on ${n}`)}" created="${created + 20_000}"/></issue>`
  );
}

/** CPU seconds the server process has used (Linux /proc; null elsewhere): contention-proof cost. */
function cpuSeconds(pid) {
  const ms = processCpuMs(pid);
  return Number.isNaN(ms) ? null : ms / 1000;
}

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-import-'));
const file = join(dir, 'bench.sqlite');
let server;
try {
  await prepare(file);
  server = await start(file);
  const bodies = [];
  for (let first = 1; first <= ISSUES; first += BATCH)
    bodies.push(
      `<issues>${Array.from({ length: Math.min(BATCH, ISSUES - first + 1) }, (_, i) => issueXml(first + i)).join('')}</issues>`,
    );
  const headers = { authorization: ROOT, 'content-type': 'application/xml', accept: 'application/xml' };
  const cpuBefore = cpuSeconds(server.child.pid);
  const started = performance.now();
  let imported = 0;
  for (const body of bodies) {
    const res = await fetch(`${server.url}/rest/import/IMP/issues`, { method: 'PUT', headers, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${text.slice(0, 300)}`);
    imported += (text.match(/imported="true"/g) ?? []).length;
    if (imported === 0) throw new Error(`nothing imported: ${text.slice(0, 600)}`);
  }
  const importMs = performance.now() - started;
  const importCpu = cpuSeconds(server.child.pid);
  if (imported !== ISSUES) throw new Error(`imported ${imported} of ${ISSUES}`);

  const singleCpuBefore = cpuSeconds(server.child.pid);
  const singleStarted = performance.now();
  for (let i = 1; i <= SINGLE; i++) {
    const query = `project=ONE&summary=${encodeURIComponent(`Created issue ${i}`)}&description=${encodeURIComponent(`Steps ${i}`)}`;
    const res = await fetch(`${server.url}/rest/issue?${query}`, {
      method: 'PUT',
      headers: { authorization: ROOT },
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`PUT /rest/issue answered ${res.status}`);
  }
  const singleMs = performance.now() - singleStarted;
  const singleCpu = cpuSeconds(server.child.pid);
  const perCpuSecond = (n, before, after) =>
    before === null || after === null || after <= before ? null : Math.round(n / (after - before));
  const importPerSecond = Math.round((ISSUES / importMs) * 1000);
  const singlePerSecond = Math.round((SINGLE / singleMs) * 1000);
  console.log(
    JSON.stringify(
      {
        benchmark: 'import',
        issues: ISSUES,
        perRequest: BATCH,
        bodyBytes: Buffer.byteLength(bodies[0]),
        importMs: +importMs.toFixed(1),
        importPerSecond,
        /** Issues per second of the server's own CPU time: what the machine's load does not change. */
        importPerServerCpuSecond: perCpuSecond(ISSUES, cpuBefore, importCpu),
        single: {
          sample: SINGLE,
          ms: +singleMs.toFixed(1),
          perSecond: singlePerSecond,
          perServerCpuSecond: perCpuSecond(SINGLE, singleCpuBefore, singleCpu),
        },
        singleExtrapolatedMs: Math.round((singleMs / SINGLE) * ISSUES),
        speedup: +(importPerSecond / singlePerSecond).toFixed(1),
      },
      null,
      2,
    ),
  );
} finally {
  server?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
