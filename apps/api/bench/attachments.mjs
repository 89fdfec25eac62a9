// Attachments (issue 40): upload and download throughput of 1 MB and 25 MB files, one client
// after the other, on SQLite (contents in a folder) and on PostgreSQL (contents in the database),
// as MB/s and PostgreSQL's ratio to SQLite in the same run; then two servers on one PostgreSQL
// database, each with a folder of its own, while 8 clients upload and 8 download 25 MB files at
// once across them: every download checked byte for byte (SHA-256), and each server's peak
// resident size (VmRSS from /proc, sampled every 20 ms; target under 250 MiB). Prints JSON.
// Runs alone too: `node apps/api/bench/attachments.mjs` (after `pnpm build`).
// Env: BENCH_PG_URL (postgres://postgres@127.0.0.1:5432), BENCH_ATTACHMENT_ROUNDS (2).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi } from './bench-support.mjs';
import { PG_BASE, pgAdmin } from './pg-admin.mjs';

const ROUNDS = Number(process.env.BENCH_ATTACHMENT_ROUNDS ?? 2);
const PASSWORD = 'bench-password';
const AUTH = `Basic ${Buffer.from(`root:${PASSWORD}`).toString('base64')}`;
const MB = 1_000_000;
const SIZES = [
  { name: '1 MB', bytes: 1 * MB, count: 20 },
  { name: '25 MB', bytes: 25 * MB, count: 4 },
];
const CLIENTS = 8;
const sha = (data) => createHash('sha256').update(data).digest('hex');

const multipart = (name, data) => {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
};

async function call(url, method, path) {
  const res = await fetch(`${url}${path}`, { method, headers: { authorization: AUTH } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * One request on a connection of its own (node:http, no agent): a pooled connection that the
 * server closes after its 5 s keep-alive while a slow phase of the bench prepares its files
 * would fail the next 25 MB upload with EPIPE. Resolves with the status, headers and the
 * response, unread.
 */
function send(url, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const req = request(
      { host: target.hostname, port: target.port, method, path: target.pathname, headers, agent: false },
      resolve,
    );
    req.on('error', (error) =>
      reject(new Error(`${method} ${path} through ${url}: ${error.code ?? error.message}`)),
    );
    req.end(body);
  });
}

/** Uploads `data` to TEST-1 through `url`; the download path of the stored attachment. */
async function upload(url, data) {
  const form = multipart(`f-${data.length}.bin`, data);
  const res = await send(
    url,
    'POST',
    '/rest/issue/TEST-1/attachment',
    {
      authorization: AUTH,
      'content-type': form.type,
      'content-length': form.body.length,
    },
    form.body,
  );
  let text = '';
  for await (const chunk of res) text += chunk;
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${text}`);
  return new URL(res.headers.location).pathname;
}

/** Downloads `path` through `url`, streaming; its length and SHA-256. */
async function download(url, path) {
  const res = await send(url, 'GET', path, { authorization: AUTH });
  const hash = createHash('sha256');
  let length = 0;
  for await (const chunk of res) {
    hash.update(chunk);
    length += chunk.length;
  }
  if (res.statusCode !== 200) throw new Error(`download: ${res.statusCode}`);
  return { length, hash: hash.digest('hex') };
}

const prepare = async (url) => {
  await call(url, 'PUT', '/rest/admin/project/TEST?projectName=Test&projectLeadLogin=root');
  await call(url, 'PUT', '/rest/issue?project=TEST&summary=files');
};

/** Peak VmRSS (MiB) of each pid while `work` runs. */
async function peakRss(pids, work) {
  const peaks = pids.map(() => 0);
  const sample = () =>
    pids.forEach((pid, i) => {
      try {
        const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        peaks[i] = Math.max(peaks[i], Math.round(kib / 1024));
      } catch {}
    });
  sample();
  const timer = setInterval(sample, 20);
  try {
    const result = await work();
    return { result, peaks };
  } finally {
    clearInterval(timer);
    sample();
  }
}

/** Sequential uploads then downloads of each size through one server: MB/s each way. */
async function throughput(url) {
  const rows = [];
  for (const size of SIZES) {
    const files = Array.from({ length: size.count }, () => randomBytes(size.bytes));
    // A warm-up of each kind (first statements, first chunks of the pool), not measured.
    await download(url, await upload(url, randomBytes(size.bytes)));
    let started = performance.now();
    const paths = [];
    for (const data of files) paths.push(await upload(url, data));
    const uploadMs = performance.now() - started;
    started = performance.now();
    for (const [i, path] of paths.entries()) {
      const got = await download(url, path);
      if (got.hash !== sha(files[i])) throw new Error(`download of ${size.name} differs from its upload`);
    }
    const downloadMs = performance.now() - started;
    const total = size.bytes * size.count;
    rows.push({
      size: size.name,
      files: size.count,
      uploadMBps: Math.round((total / MB / (uploadMs / 1000)) * 10) / 10,
      downloadMBps: Math.round((total / MB / (downloadMs / 1000)) * 10) / 10,
    });
  }
  return rows;
}

const stop = (api) =>
  new Promise((resolve) => {
    if (api.child.exitCode !== null) return resolve();
    api.child.once('exit', resolve);
    api.child.kill('SIGTERM');
  });

const folders = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-att-'));
  folders.push(dir);
  return dir;
};
const databases = [];
async function database() {
  const name = `trackline_bench_att_${process.pid}_${databases.length}`;
  await pgAdmin(`create database ${name}`);
  databases.push(name);
  return `${PG_BASE}/${name}`;
}
/** A server (one process) with a data folder of its own; on `databaseUrl` when given, else SQLite there. */
function server(databaseUrl) {
  const data = folder();
  return startApi(join(data, 'trackline.sqlite'), {
    env: {
      ADMIN_PASSWORD: PASSWORD,
      TRACKLINE_PROCESSES: '1',
      TRACKLINE_ATTACHMENTS_DIR: join(data, 'attachments'),
      TRACKLINE_LOG_LEVEL: 'warn',
      // Hundreds of MB on one issue: the quotas are not what is measured.
      TRACKLINE_ATTACHMENT_QUOTA_USER_BYTES: '0',
      TRACKLINE_ATTACHMENT_QUOTA_ISSUE_BYTES: '0',
      TRACKLINE_ATTACHMENT_QUOTA_TOTAL_BYTES: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
}

try {
  const stores = {};
  for (const [store, databaseUrl] of [
    ['sqlite-folder', null],
    ['postgresql-database', await database()],
  ]) {
    const api = await server(databaseUrl);
    try {
      await prepare(api.url);
      stores[store] = await throughput(api.url);
    } finally {
      await stop(api);
    }
  }
  const ratios = stores['sqlite-folder'].map((row, i) => {
    const other = stores['postgresql-database'][i];
    return {
      size: row.size,
      upload: Math.round((other.uploadMBps / row.uploadMBps) * 100) / 100,
      download: Math.round((other.downloadMBps / row.downloadMBps) * 100) / 100,
    };
  });

  // Two hosts on one database: 8 uploads and 8 downloads of 25 MB at once, across them.
  const shared = await database();
  const hosts = [await server(shared), await server(shared)];
  let twoHosts;
  try {
    await prepare(hosts[0].url);
    const bytes = 25 * MB;
    const stored = [];
    for (let i = 0; i < CLIENTS; i++) {
      const data = randomBytes(bytes);
      stored.push({ path: await upload(hosts[i % 2].url, data), hash: sha(data) });
    }
    const started = performance.now();
    const { peaks, result: checked } = await peakRss(
      hosts.map((h) => h.child.pid),
      async () => {
        let ok = 0;
        for (let round = 0; round < ROUNDS; round++) {
          const fresh = Array.from({ length: CLIENTS }, () => randomBytes(bytes));
          const results = await Promise.all([
            ...fresh.map((data, i) => upload(hosts[(i + round) % 2].url, data)),
            // Each download through the host the file was not uploaded through.
            ...stored.map(async (file, i) => {
              const got = await download(hosts[(i + 1) % 2].url, file.path);
              return got.hash === file.hash && got.length === bytes;
            }),
          ]);
          ok += results.filter((r) => r === true).length;
          // This round's uploads are next round's downloads, through the other host.
          fresh.forEach((data, i) => {
            stored[i] = { path: results[i], hash: sha(data) };
          });
        }
        return ok;
      },
    );
    if (checked !== CLIENTS * ROUNDS) throw new Error(`${CLIENTS * ROUNDS - checked} downloads differed`);
    const seconds = (performance.now() - started) / 1000;
    twoHosts = {
      clients: CLIENTS,
      rounds: ROUNDS,
      fileMB: 25,
      downloadsChecked: checked,
      seconds: Math.round(seconds * 10) / 10,
      movedMBps: Math.round(((2 * CLIENTS * ROUNDS * bytes) / MB / seconds) * 10) / 10,
      peakRssMiB: peaks,
      targetMiB: 250,
    };
  } finally {
    await Promise.all(hosts.map(stop));
  }
  console.log(JSON.stringify({ stores, ratios, twoHosts }, null, 2));
} finally {
  for (const name of databases) await pgAdmin(`drop database if exists ${name} with (force)`).catch(() => {});
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
}
