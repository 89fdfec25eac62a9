// The write mix (write-mix.ts) at length, against the built server as `./trackline start` runs it:
// SQLite (a file, one process: the embedded default) and PostgreSQL (two processes on one
// database, the scale-out setting), 1, 4 and 16 clients, WRITE_MIX_SECONDS (60) each. Per row:
// requests, statuses, p50/p99 of every request kind, the p99 against the 1-client row of the same
// database (measured in this run), every acknowledged write read back, SQLite's integrity check of
// both files, and the time until the last written words are found. Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDomain, startApi } from './bench-support.mjs';
import { runWriteMix, setUpWriteMix, verifyWriteMix } from './write-mix.ts';

const SECONDS = Number(process.env.WRITE_MIX_SECONDS ?? 60);
const CLIENTS = (process.env.WRITE_MIX_CLIENTS ?? '1,4,16').split(',').map(Number);
const DATABASES = (process.env.WRITE_MIX_DATABASES ?? 'sqlite,postgresql').split(',');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const root = { login: 'root', password: 'root-password' };
const testing = () =>
  import(fileURLToPath(new URL('../../../packages/domain/dist-testing/testing/index.js', import.meta.url)));

async function integrity(file) {
  const domain = await loadDomain();
  const orm = await domain.createOrm({ kind: 'sqlite', file });
  try {
    const em = orm.em.fork();
    const main = await em.execute('pragma main.integrity_check');
    const fts = await em.execute('pragma fts.integrity_check');
    return { main: main[0]?.integrity_check, textIndex: fts[0]?.integrity_check };
  } finally {
    await orm.close(true);
  }
}

async function onDatabase(database) {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-write-mix-'));
  const file = join(dir, 'write-mix.sqlite');
  let scratch;
  const env = { ADMIN_PASSWORD: root.password, NODE_ENV: 'production', TRACKLINE_LOG_LEVEL: 'warn' };
  if (database === 'postgresql') {
    scratch = await (await testing()).createScratchDatabase(PG);
    Object.assign(env, { DATABASE_URL: scratch.url, TRACKLINE_PROCESSES: '2' });
  }
  const api = await startApi(file, { env });
  const rows = [];
  try {
    for (const clients of CLIENTS) {
      const project = `WM${clients}`;
      const users = await setUpWriteMix(api.url, root, { clients, project });
      const result = await runWriteMix({
        url: api.url,
        root,
        users,
        project,
        durationMs: SECONDS * 1000,
        run: `b${clients}`,
      });
      const verified = await verifyWriteMix(api.url, root, users, result);
      const fiveHundreds = Object.entries(result.all.statuses)
        .filter(([status]) => Number(status) >= 500)
        .reduce((sum, [, n]) => sum + n, 0);
      rows.push({
        clients,
        requests: result.all.requests,
        perSecond: Math.round(result.all.requests / (result.durationMs / 1000)),
        statuses: result.all.statuses,
        fiveHundreds,
        p50: result.all.p50,
        p99: result.all.p99,
        kinds: result.kinds,
        issuesWritten: result.issues.length,
        imported: Object.values(result.imported).reduce((a, b) => a + b, 0),
        searchMisses: result.searchMisses.length,
        readBack: {
          checked: verified.checked,
          missing: verified.missing.slice(0, 20),
          missingCount: verified.missing.length,
        },
        lastWordsFindableAfterMs: verified.findableAfterMs,
        serverErrors: result.serverErrors.slice(0, 5),
      });
      process.stderr.write(
        `write mix ${database} ${clients} clients: ${result.all.requests} requests, ${fiveHundreds} 5xx, p99 ${result.all.p99} ms, ` +
          `${verified.missing.length} missing, ${result.searchMisses.length} search misses\n`,
      );
    }
  } finally {
    api.child.kill('SIGTERM');
    await new Promise((resolve) => api.child.once('exit', resolve));
  }
  const checks = database === 'sqlite' ? await integrity(file) : null;
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
  const one = rows.find((r) => r.clients === 1);
  for (const row of rows) row.p99ToOneClient = one ? Math.round((row.p99 / one.p99) * 100) / 100 : null;
  return { processes: database === 'postgresql' ? 2 : 1, rows, integrity: checks };
}

const out = { seconds: SECONDS };
for (const database of DATABASES) out[database] = await onDatabase(database);
console.log(JSON.stringify(out));
