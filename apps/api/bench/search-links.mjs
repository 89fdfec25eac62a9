// Link queries and search fairness (issues 35 and 37): TRACKLINE_BENCH_LINKS_ISSUES issues (default
// 20,000, the issues' figure) imported through `PUT /rest/import/{project}/issues` (the search
// bench's data: 20 projects, 200 users, 5 fields, words and comments) and 10,000 links between them
// (`PUT /rest/import/links`: relates to, depends on, subtask of), then, measured sequentially on
// loopback after one warm-up request each:
//  - rows: the first page of 50 of each link attribute with a (query), and the command assist with
//    such a `query=` context, against the baseline measured in this run: `State: Open`'s first page;
//  - fairness: a second user's `State: Open` first page while a first user keeps 4 slow searches in
//    flight at once, against the same page of the same user with nothing else running.
// Database: SQLite file (default) or PostgreSQL with TRACKLINE_BENCH_LINKS_PG=postgres://…/ (a
// database `trackline_bench_links` is created there, dropped first). TRACKLINE_BENCH_LINKS_KEEP=1 keeps
// (and reuses: queries only) the SQLite file TRACKLINE_BENCH_LINKS_FILE or the PostgreSQL database.
// Prints JSON.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDomain, startApi, waitForIndexer } from './bench-support.mjs';
import { importRequestsAhead } from './search-bodies.mjs';
import { PROJECTS, project, VOCABULARY } from './search-data.mjs';
import { prepareSearchData, searchDatabase } from './search-setup.mjs';

const domain = await loadDomain();
const ISSUES = Number(process.env.TRACKLINE_BENCH_LINKS_ISSUES ?? 20_000);
const LINKS = Math.round(ISSUES / 2);
const REPS = Number(process.env.TRACKLINE_BENCH_LINKS_REPS ?? 50);
const PG = process.env.TRACKLINE_BENCH_LINKS_PG;
const KEEP = process.env.TRACKLINE_BENCH_LINKS_KEEP === '1';
const PG_DB = 'trackline_bench_links';
const basic = (login, password) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const ROOT = basic('root', 'root-password');
/** The two users of the fairness rows: Developers everywhere, nothing else. */
const SLOW = basic('flooder', 'flooder-password');
const STEADY = basic('steady', 'steady-password');

async function send(url, method, path, body, contentType = 'application/xml') {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: ROOT, 'content-type': contentType },
    body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

async function importAll(url) {
  const requests = importRequestsAhead(ISSUES);
  try {
    for (let r = await requests.next(); r; r = await requests.next())
      await send(url, 'PUT', `/rest/import/${r.project}/issues`, r.body);
  } finally {
    await requests.close();
  }
  // Links between random issues (a fixed seed: every run links the same pairs).
  let seed = 777;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const perProject = Math.floor(ISSUES / PROJECTS);
  const anIssue = () =>
    `${project(Math.floor(random() * PROJECTS))}-${1 + Math.floor(random() * perProject)}`;
  const TYPES = ['Relates', 'Depend', 'Subtask'];
  const links = [];
  for (let i = 0; i < LINKS; i++) {
    const source = anIssue();
    const target = anIssue();
    if (source !== target) links.push({ typeName: TYPES[i % TYPES.length], source, target });
  }
  for (let i = 0; i < links.length; i += 5000) {
    const xml = links
      .slice(i, i + 5000)
      .map((l) => `<link typeName="${l.typeName}" source="${l.source}" target="${l.target}"/>`)
      .join('');
    await send(url, 'PUT', '/rest/import/links', `<list>${xml}</list>`);
  }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: +percentile(sorted, 50).toFixed(2), p99: +percentile(sorted, 99).toFixed(2) };
};

async function get(url, path, authorization = ROOT) {
  const t = performance.now();
  const res = await fetch(`${url}${path}`, { headers: { authorization, accept: 'application/json' } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 300)}`);
  return { ms: performance.now() - t, body };
}

async function measure(url, path, authorization = ROOT, reps = REPS) {
  const { body } = await get(url, path, authorization);
  const times = [];
  for (let i = 0; i < reps; i++) times.push((await get(url, path, authorization)).ms);
  return { ...stats(times), body };
}

const page = (filter) => `/rest/issue?filter=${encodeURIComponent(filter)}&max=50`;
const BASELINE = 'State: Open';
const LINK_QUERIES = [
  ['relates to: (project)', 'relates to: (project: S03)'],
  ['depends on: (field)', 'depends on: (State: Open)'],
  ['is required for: (fields)', 'is required for: (Priority: Critical Type: Bug)'],
  ['subtask of: (project + #)', 'subtask of: (project: S05 #Unresolved)'],
  ['parent for: (word)', `parent for: (${VOCABULARY[299]})`],
  ['links: (project) + field', 'links: (project: S07) State: Open'],
  ['has: {depends on}', 'has: {depends on} project: S02'],
];
const ASSIST = `/rest/command/underlineAndSuggest?command=${encodeURIComponent('State ')}&caret=6&query=${encodeURIComponent('relates to: (project: S03)')}`;
/**
 * What the first user floods with: searches that read every issue (a sort by a count over all
 * of them, a count of an OR over two words' documents and every issue's links), each tens to
 * hundreds of milliseconds here; four at once, again as each answers.
 */
const SLOW_QUERIES = [
  page('sort by: comments desc, votes desc'),
  `/rest/issue/count?filter=${encodeURIComponent('has: -links or has: links sort by: votes')}`,
  page('State: -Open sort by: summary'),
  page('has: -attachments sort by: reporter'),
];

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-links-'));
const file = process.env.TRACKLINE_BENCH_LINKS_FILE ?? join(dir, 'links.sqlite');
const db = searchDatabase({ pg: PG, pgDb: PG_DB, file, keep: KEEP });
const { pgUrl } = db;
let server;
try {
  const reuse = db.open();
  if (!reuse)
    await prepareSearchData(domain, db.config, {
      name: 'Links bench',
      fullName: (u) => `User ${u}`,
      more: async (fork, root) => {
        for (const login of ['flooder', 'steady']) {
          await domain.insertUser(fork(), {
            login,
            email: `${login}@example.com`,
            password: `${login}-password`,
          });
          await domain.grantRole(fork(), root, login, 'Developer');
        }
      },
    });
  const env = { NODE_ENV: 'production', ...(PG ? { DATABASE_URL: pgUrl } : {}) };
  server = await startApi(file, { env });
  if (!reuse) {
    await importAll(server.url);
    if (!PG) await waitForIndexer(file);
    if (PG) execFileSync('psql', [pgUrl, '-qc', 'vacuum analyze']);
    else {
      // Statistics as a restarted server has them (the search bench does the same).
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      server = await startApi(file, { env });
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  for (const who of [ROOT, SLOW, STEADY]) await get(server.url, '/rest/admin/project', who).catch(() => {});
  const baseline = await measure(server.url, page(BASELINE));
  const rows = [];
  const row = async (name, filter, path) => {
    const m = await measure(server.url, path);
    const matches = filter
      ? JSON.parse((await get(server.url, `/rest/issue/count?filter=${encodeURIComponent(filter)}`)).body)
          .value
      : null;
    rows.push({
      name,
      filter,
      matches,
      median: m.median,
      p99: m.p99,
      p99ToBaseline: +(m.p99 / baseline.p99).toFixed(2),
    });
    process.stderr.write(
      `links bench: ${name.padEnd(28)} ${String(matches).padStart(6)} matches  page ${m.median}/${m.p99} ms\n`,
    );
  };
  for (const [name, filter] of LINK_QUERIES) await row(name, filter, page(filter));
  await row('command assist, query=(…)', null, ASSIST);

  // Fairness: the steady user's page alone, then beside the flood (4 slow searches in flight).
  const alone = await measure(server.url, page(BASELINE), STEADY);
  const slowTimes = [];
  let flooding = true;
  const flood = async (i) => {
    while (flooding) slowTimes.push((await get(server.url, SLOW_QUERIES[i], SLOW)).ms);
  };
  const flooders = [0, 1, 2, 3].map((i) => flood(i));
  await new Promise((r) => setTimeout(r, 500));
  const beside = await measure(server.url, page(BASELINE), STEADY, REPS * 2);
  flooding = false;
  await Promise.all(flooders);
  const fairness = {
    alone: { median: alone.median, p99: alone.p99 },
    besideFlood: { median: beside.median, p99: beside.p99 },
    p99ToAlone: +(beside.p99 / alone.p99).toFixed(2),
    slowSearches: { count: slowTimes.length, ...stats(slowTimes) },
  };
  process.stderr.write(`links bench: fairness ${JSON.stringify(fairness)}\n`);
  console.log(
    JSON.stringify(
      {
        benchmark: 'search-links',
        database: PG ? 'postgresql' : 'sqlite',
        issues: ISSUES,
        links: LINKS,
        reps: REPS,
        loadAverage: loadavg().map((l) => +l.toFixed(2)),
        baseline: { filter: BASELINE, median: baseline.median, p99: baseline.p99 },
        rows,
        fairness,
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
