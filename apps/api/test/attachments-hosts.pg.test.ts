import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApi, stopApi } from './api-process.js';
import { basic, TEST_DIALECT, TEST_PG_URL } from './harness.js';

/**
 * Two real servers (`dist/main.js`) on one PostgreSQL database, each with a data folder of its
 * own, as two machines behind a load balancer (issue 40): an attachment uploaded through either is
 * downloaded through the other byte for byte, from 1 byte to the size limit. With attachments in
 * a folder instead, a host whose folder is not the first host's refuses to start.
 */

const PASSWORD = 'two-hosts-password';
const AUTH = { authorization: basic('root', PASSWORD) };
const LIMIT = 25 * 1024 * 1024;
const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function upload(api: ApiProcess, issue: string, name: string, data: Buffer) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${api.url}/rest/issue/${issue}/attachment`, {
    method: 'POST',
    headers: { ...AUTH, accept: 'application/json' },
    body: form,
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') ?? '' };
}

async function download(api: ApiProcess, location: string) {
  const res = await fetch(`${api.url}${new URL(location).pathname}`, { headers: AUTH });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

describe.skipIf(TEST_DIALECT !== 'postgresql')('two hosts on one PostgreSQL database', () => {
  let db: ScratchDatabase;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-host-'));
    folders.push(dir);
    return dir;
  };
  const started: ApiProcess[] = [];
  /** A host with a data folder of its own (its attachment folder is inside it). */
  const host = async (env: Record<string, string> = {}) => {
    const data = folder();
    const api = await startApi(db.url, {
      ADMIN_PASSWORD: PASSWORD,
      TRACKLINE_RATE_LIMIT: 'off',
      TRACKLINE_DB: join(data, 'trackline.sqlite'),
      TRACKLINE_ATTACHMENTS_DIR: join(data, 'attachments'),
      ...env,
    });
    started.push(api);
    return api;
  };
  beforeAll(async () => {
    db = await createScratchDatabase(TEST_PG_URL);
  });
  afterAll(async () => {
    await Promise.all(started.map(stopApi));
    await db?.drop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('every file uploaded through either host downloads through the other, 1 byte to 25 MB', async () => {
    const [a, b] = [await host(), await host()];
    expect(a.output()).toMatch(/attachments: database/);
    const project = await fetch(`${a.url}/rest/admin/project/TWO?projectName=Two&projectLeadLogin=root`, {
      method: 'PUT',
      headers: AUTH,
    });
    expect(project.status).toBe(201);
    expect(
      (await fetch(`${b.url}/rest/issue?project=TWO&summary=files`, { method: 'PUT', headers: AUTH })).status,
    ).toBe(201);
    const sizes = [1, 2, 262_143, 262_144, 262_145, 1_000_000, LIMIT];
    for (const [i, size] of sizes.entries()) {
      const data = randomBytes(size);
      const [via, other] = i % 2 === 0 ? [a, b] : [b, a];
      const stored = await upload(via, 'TWO-1', `f${size}.bin`, data);
      expect(stored.status, stored.text).toBe(201);
      const got = await download(other, stored.location);
      expect(got.status).toBe(200);
      expect([got.body.length, sha(got.body)]).toEqual([size, sha(data)]);
    }
    // One byte past the limit: refused, nothing stored.
    expect((await upload(b, 'TWO-1', 'over.bin', randomBytes(LIMIT + 1))).status).toBe(413);
    const list = await fetch(`${b.url}/rest/issue/TWO-1/attachment`, {
      headers: { ...AUTH, accept: 'application/json' },
    });
    expect((await list.json()).length).toBe(sizes.length);
    // 50 MB and more through two servers on a machine other test files share.
  }, 180_000);

  it('attachments in a folder: a host whose folder lacks the first host\u2019s marker does not start', async () => {
    const shared = folder();
    const inFolder = { TRACKLINE_ATTACHMENTS_STORE: 'directory' };
    const first = await host({ ...inFolder, TRACKLINE_ATTACHMENTS_DIR: shared });
    // Another mount of the same folder: starts, and serves what the first stored.
    const second = await host({ ...inFolder, TRACKLINE_ATTACHMENTS_DIR: shared });
    const data = randomBytes(70_000);
    const stored = await upload(first, 'TWO-1', 'shared.bin', data);
    expect(stored.status, stored.text).toBe(201);
    expect(sha((await download(second, stored.location)).body)).toBe(sha(data));
    // A folder of its own: one line naming the setting, the marker and the first host; status 2.
    const refused = await host({ ...inFolder }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/server exited with 2/);
    expect(refused).toMatch(
      /TRACKLINE_ATTACHMENTS_DIR: \S+ is not the attachment folder the other hosts of this database use: it lacks the marker \.trackline-attachments that host \S+ wrote into/,
    );
    expect(refused).not.toMatch(/\n\s+at /);
  });
});
