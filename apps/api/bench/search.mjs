// Search benchmark (issue 21): builds TRACKLINE_BENCH_SEARCH_ISSUES issues (default 1,000,000,
// the issue's figure; 10,000 and 100,000 for the growth curve) through `PUT /rest/import/{project}/issues` (100 per request,
// sequential): 20 projects, 200 users, each issue with 5 field values (State, Priority, Type,
// Assignee, Subsystem on half of them), 40 words of summary and description and 2 comments of 40
// words (words drawn from a Zipf-distributed vocabulary of 5,000). Then, for a fixed mix of
// everyday queries, measures sequentially (client-side, loopback) the first page of 50
// (`GET /rest/issue?filter&max=50`) and the count (`GET /rest/issue/count?filter`): median and
// p99 of TRACKLINE_BENCH_SEARCH_REPS (30) requests each, after one warm-up request: first on the
// server that took the import (no restart: as a user who migrates and goes on working meets it),
// then after a restart (SQLite) or a manual `vacuum analyze` (PostgreSQL), for the ratio.
// Database: SQLite file (default) or PostgreSQL with TRACKLINE_BENCH_SEARCH_PG=postgres://…/ (a
// database `trackline_bench_search`, or TRACKLINE_BENCH_SEARCH_PG_DB, is created there, dropped first:
// give each concurrent run on a shared server its own name). TRACKLINE_BENCH_SEARCH_KEEP=1
// keeps (and reuses, if present: queries only) the SQLite file `TRACKLINE_BENCH_SEARCH_FILE` or the
// PostgreSQL database. Prints JSON.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDomain, processCpuMs, processTreeCpuMs, startApi, waitForIndexer } from './bench-support.mjs';
import { importRequestsAhead } from './search-bodies.mjs';
import { project, VOCABULARY } from './search-data.mjs';
import { prepareSearchData, searchDatabase } from './search-setup.mjs';

const domain = await loadDomain();
const ISSUES = Number(process.env.TRACKLINE_BENCH_SEARCH_ISSUES ?? 1_000_000);
const REPS = Number(process.env.TRACKLINE_BENCH_SEARCH_REPS ?? 30);
const PG = process.env.TRACKLINE_BENCH_SEARCH_PG;
const KEEP = process.env.TRACKLINE_BENCH_SEARCH_KEEP === '1';
const PG_DB = process.env.TRACKLINE_BENCH_SEARCH_PG_DB ?? 'trackline_bench_search';
// Extra node flags of the server (for example `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
const NODE_ARGS = (process.env.TRACKLINE_BENCH_SEARCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const ROOT = `Basic ${Buffer.from('root:root-password').toString('base64')}`;
async function importAll(url) {
  const headers = { authorization: ROOT, 'content-type': 'application/xml' };
  const requests = importRequestsAhead(ISSUES);
  const started = performance.now();
  let batches = 0;
  let imported = 0;
  let serverMs = 0;
  try {
    for (let request = await requests.next(); request; request = await requests.next()) {
      const { count, body } = request;
      const send = () =>
        fetch(`${url}/rest/import/${request.project}/issues`, { method: 'PUT', headers, body });
      // A pooled connection the server closed meanwhile fails once: the batch is sent again (an
      // import is idempotent: a second identical request changes nothing).
      const res = await send().catch(send);
      const text = await res.text();
      serverMs += Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? 0);
      if (res.status !== 200 || (text.match(/imported="true"/g) ?? []).length !== count)
        throw new Error(`import answered ${res.status}: ${text.slice(0, 400)}`);
      imported += count;
      if (++batches % 500 === 0) process.stderr.write(`search bench: imported ${imported} issues\n`);
    }
  } finally {
    await requests.close();
  }
  return { ms: performance.now() - started, serverMs };
}

// The everyday mix: one of each kind the issue names. Words: a frequent one (rank 20) and a
// middling one (rank 300) of the vocabulary.
const FREQUENT = VOCABULARY[19];
const MIDDLING = VOCABULARY[299];
const QUERIES = [
  ['single field', 'State: Open'],
  ['two fields', 'Priority: Critical State: Open'],
  ['three fields', 'Priority: Critical State: Open Type: Bug'],
  ['field + text', `State: Open ${MIDDLING}`],
  ['text alone', FREQUENT],
  ['#Unresolved + assignee', '#Unresolved for: u7'],
  ['date range', 'created: 2020-01-01 .. 2020-03-31'],
  ['has:', 'has: Subsystem #Critical'],
  ['or', '(State: Open) or (State: Fixed)'],
  ['sort by field', 'project: S03 #Unresolved sort by: Priority asc, updated desc'],
  ['an id', `${project(4)}-12`],
  ['empty result', 'nosuchwordanywhere'],
  ['project + user + text', `project: S07 by: u12 ${MIDDLING}`],
];

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function measure(url, path) {
  const headers = { authorization: ROOT, accept: 'application/json' };
  const get = async () => {
    const t = performance.now();
    // A pooled connection the server closed while idle (its keep-alive ran out during a long
    // step such as ANALYZE) fails once: that request is sent again.
    const res = await fetch(`${url}${path}`, { headers }).catch(() => fetch(`${url}${path}`, { headers }));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 300)}`);
    return { ms: performance.now() - t, body };
  };
  const { body } = await get();
  const times = [];
  for (let i = 0; i < REPS; i++) times.push((await get()).ms);
  times.sort((a, b) => a - b);
  return { median: +percentile(times, 50).toFixed(2), p99: +percentile(times, 99).toFixed(2), body };
}

/**
 * Each server process checks root's password (scrypt: 70-100 ms of the first request measured on a
 * freshly started server, then 10-15) the first time it sees it, and remembers it. On PostgreSQL
 * there is a process per core, and the first row's warm-up request reaches only one of them, so
 * another's first request landed among the measured ones (a page p99 of 96-104 ms in two of five
 * runs on a kept database, every statement of it under 70 ms in the server's log). The mix
 * measures searches: each process gets a request first. Concurrent requests open connections of
 * their own, which the cluster deals out to its processes in turn.
 */
async function authenticateEverywhere(url) {
  const headers = { authorization: ROOT, accept: 'application/json' };
  await Promise.all(
    Array.from({ length: 8 }, () => fetch(`${url}/rest/admin/project`, { headers }).then((r) => r.text())),
  );
}

/** The first page and the count of every query of the mix, measured one after the other. */
async function measureMix(url) {
  const rows = [];
  for (const [name, filter] of QUERIES) {
    const q = encodeURIComponent(filter);
    const page = await measure(url, `/rest/issue?filter=${q}&max=50`);
    const count = await measure(url, `/rest/issue/count?filter=${q}`);
    const matches = JSON.parse(count.body).value;
    const pageSize = JSON.parse(page.body).issue?.length ?? 0;
    rows.push({
      name,
      filter,
      matches,
      pageSize,
      page: { median: page.median, p99: page.p99 },
      count: { median: count.median, p99: count.p99 },
    });
    process.stderr.write(
      `search bench: ${name.padEnd(24)} ${String(matches).padStart(8)} matches  page ${page.median}/${page.p99} ms  count ${count.median}/${count.p99} ms\n`,
    );
  }
  return rows;
}

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-search-'));
const file = process.env.TRACKLINE_BENCH_SEARCH_FILE ?? join(dir, 'search.sqlite');
const db = searchDatabase({ pg: PG, pgDb: PG_DB, file, keep: KEEP });
const { pgUrl } = db;
let server;
try {
  const reuse = db.open();
  if (!reuse)
    await prepareSearchData(domain, db.config, {
      name: 'Search bench',
      fullName: (u) => `User ${String(u).padStart(3, '0')}`,
    });
  server = await startApi(file, {
    nodeArgs: NODE_ARGS,
    env: { NODE_ENV: 'production', ...(PG ? { DATABASE_URL: pgUrl } : {}) },
  });
  let importMs = null;
  let importCpuMs = null;
  let importRequestsMs = null;
  let importLoadAverage = null;
  let importWorkersCpuMs = null;
  let indexCatchUpMs = null;
  if (!reuse) {
    const cpu = processCpuMs(server.child.pid);
    const treeCpu = processTreeCpuMs(server.child.pid);
    ({ ms: importMs, serverMs: importRequestsMs } = await importAll(server.url));
    importLoadAverage = loadavg().map((l) => +l.toFixed(2));
    importCpuMs = processCpuMs(server.child.pid) - cpu;
    importWorkersCpuMs = processTreeCpuMs(server.child.pid) - treeCpu - importCpuMs;
    // SQLite's text index is near-real-time (its indexer process): how long it took to catch up.
    if (!PG) indexCatchUpMs = await waitForIndexer(file);
  }
  // First as users meet it: the server that took the import, no restart, no manual step (the
  // server keeps the planner's statistics current itself: search-engine.ts). Then, for the same
  // run's ratio, after what used to be needed: a restart (SQLite) or a manual `vacuum analyze`
  // (PostgreSQL).
  await authenticateEverywhere(server.url);
  const rows = await measureMix(server.url);
  let restartedRows = null;
  if (!reuse) {
    if (PG) execFileSync('psql', [pgUrl, '-qc', 'vacuum analyze']);
    else {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      server = await startApi(file, { nodeArgs: NODE_ARGS, env: { NODE_ENV: 'production' } });
    }
    await authenticateEverywhere(server.url);
    restartedRows = await measureMix(server.url);
  }
  console.log(
    JSON.stringify(
      {
        benchmark: 'search',
        database: PG ? 'postgresql' : 'sqlite',
        issues: ISSUES,
        reps: REPS,
        // The machine's load (1, 5, 15 minutes) when the measurements ended: a shared machine shows here.
        loadAverage: loadavg().map((l) => +l.toFixed(2)),
        importMs: importMs === null ? null : Math.round(importMs),
        importPerSecond: importMs === null ? null : Math.round((ISSUES / importMs) * 1000),
        importServerCpuMs: importCpuMs,
        // The server's child processes meanwhile: on SQLite the search engine's (the text indexer
        // among them); on PostgreSQL the API's worker processes (one per core), which do the work.
        importWorkersCpuMs,
        // The import requests' own time on the server (their Server-Timing), summed.
        importRequestsMs: importRequestsMs === null ? null : Math.round(importRequestsMs),
        importLoadAverage,
        indexCatchUpMs: indexCatchUpMs === null ? null : Math.round(indexCatchUpMs),
        // Measured on the server that took the import, without a restart or a manual analysis.
        rows,
        // The same mix after a restart (SQLite) or a manual `vacuum analyze` (PostgreSQL).
        restartedRows,
      },
      null,
      2,
    ),
  );
} finally {
  server?.child.kill('SIGTERM');
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
  db.drop();
}
