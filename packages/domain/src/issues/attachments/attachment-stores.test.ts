import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { actorFor, createTestOrm, fork, storedContents, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm } from '../../model/create-orm.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import { type AttachmentStore, createFileAttachmentStore } from './attachment-store.js';
import { ATTACHMENT_CHUNK_BYTES, createPostgresAttachmentStore } from './attachment-store-pg.js';

/*
 * What every attachment store promises (attachment-store.ts), for the folder store (on either
 * database: its sweep asks the database which contents rows use) and, on PostgreSQL, the store
 * in the database, both with small chunks (every chunk boundary is crossed by a few bytes) and
 * with the production chunk size. The PostgreSQL store is also opened twice on two connections
 * pools, as two hosts of one database open it.
 */

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** `data` in pieces of `piece` bytes, as a network stream delivers it. */
const pieces = (data: Buffer, piece = 7_919) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
  );
/** `good` bytes, then the source fails (a client that went away). */
const brokenAfter = (data: Buffer, good: number) =>
  Readable.from(
    (async function* () {
      yield data.subarray(0, good);
      throw new Error('connection reset');
    })(),
  );

type Case = { name: string; open(orm: Orm, dir: string): AttachmentStore; chunk?: number };
const CASES: Case[] = [
  { name: 'folder', open: (_orm, dir) => createFileAttachmentStore(dir) },
  ...(TEST_DIALECT === 'postgresql'
    ? [
        {
          name: 'PostgreSQL, 1 KiB chunks',
          open: (orm: Orm) => createPostgresAttachmentStore(orm, { chunkBytes: 1024 }),
          chunk: 1024,
        },
        {
          name: 'PostgreSQL, production chunks',
          open: (orm: Orm) => createPostgresAttachmentStore(orm),
          chunk: ATTACHMENT_CHUNK_BYTES,
        },
      ]
    : []),
];

describe.each(CASES)('attachment store: $name', ({ open, chunk = 4096 }) => {
  let orm: Orm;
  let dir: string;
  let store: AttachmentStore;
  const all = () => storedContents(store);
  beforeAll(async () => {
    orm = await createTestOrm();
    dir = mkdtempSync(join(tmpdir(), 'trackline-store-'));
    store = open(orm, dir);
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'STO', name: 'Store' });
    await createIssue(fork(orm), root, { project: 'STO', summary: 'holder' });
  });
  afterAll(async () => {
    await orm.close(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives back every size byte for byte, around every chunk boundary', async () => {
    const sizes = [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 17];
    for (const size of sizes) {
      const data = randomBytes(size);
      const put = await store.put(pieces(data), size);
      expect(put).toEqual({ hash: sha(data), size });
      expect(await store.has(put.hash)).toBe(true);
      expect((await buffer(await store.open(put.hash))).equals(data)).toBe(true);
    }
    expect((await all()).length).toBe(sizes.length);
  });

  it('stores identical content once, also when it arrives many times at once', async () => {
    const before = (await all()).length;
    const data = randomBytes(3 * chunk + 5);
    const puts = await Promise.all(
      Array.from({ length: 8 }, () => store.put(pieces(data, 1000), 10 * chunk)),
    );
    expect(new Set(puts.map((p) => p.hash))).toEqual(new Set([sha(data)]));
    expect((await all()).length).toBe(before + 1);
    expect((await buffer(await store.open(sha(data)))).equals(data)).toBe(true);
    // Nothing half-written stays behind either: the sweep finds nothing to remove but the unused.
    expect(await store.removeUnused(fork(orm), 60_000)).toBe(0);
  });

  it('refuses the byte past the limit, and a failing source, keeping nothing of either', async () => {
    const before = await all();
    const data = randomBytes(2 * chunk + 3);
    await expect(store.put(pieces(data), 2 * chunk + 2)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(store.put(brokenAfter(data, chunk + 1), 10 * chunk)).rejects.toThrow(/connection reset/);
    expect(await all()).toEqual(before);
    expect(await store.has(sha(data))).toBe(false);
    await expect(store.open(sha(data))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.open('../../etc/passwd')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await store.removeUnused(fork(orm), 60_000)).toBe(0);
    if (store.kind === 'directory') expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('sweeps contents no row uses once older than the grace; keeps used ones and ones an upload renewed', async () => {
    const used = randomBytes(chunk + 1);
    const { hash: usedHash } = await store.put(pieces(used), 10 * chunk);
    await fork(orm).execute(
      `insert into issue_attachments (issue_id, name, content_hash, size, content_type, author_id, created_at)
       select i.id, 'kept.bin', ?, ?, 'application/octet-stream', u.id, ? from issues i, users u where u.login = 'root'`,
      [usedHash, used.length, new Date()],
    );
    const renewed = randomBytes(chunk + 2);
    const { hash: renewedHash } = await store.put(pieces(renewed), 10 * chunk);
    // Every content looks two hours old; then an upload of the same bytes renews one of them.
    for (const hash of await all()) await age(orm, dir, store, hash);
    await store.put(pieces(renewed), 10 * chunk);
    const unused = (await all()).filter((h) => h !== usedHash && h !== renewedHash);
    expect(unused.length).toBeGreaterThan(0);
    expect(await store.removeUnused(fork(orm), 3_600_000)).toBe(unused.length);
    expect((await all()).sort()).toEqual([usedHash, renewedHash].sort());
    // Past its grace too, the renewed one goes (no row uses it); the used one stays.
    expect(await store.removeUnused(fork(orm), -60_000)).toBe(1);
    expect(await all()).toEqual([usedHash]);
    expect((await buffer(await store.open(usedHash))).equals(used)).toBe(true);
  });
});

/** Makes `hash` look stored two hours ago. */
async function age(orm: Orm, dir: string, store: AttachmentStore, hash: string) {
  const then = new Date(Date.now() - 2 * 3_600_000);
  if (store.kind === 'directory') utimesSync(join(dir, hash.slice(0, 2), hash), then, then);
  else await fork(orm).execute('update attachment_blobs set stored_at = ? where hash = ?', [then, hash]);
}

describe.runIf(TEST_DIALECT === 'postgresql')('the PostgreSQL store on two hosts of one database', () => {
  let first: Orm;
  let second: Orm;
  beforeAll(async () => {
    first = await createTestOrm();
    // The second host: a pool of its own on the same database.
    second = await createOrm({ kind: 'postgresql', url: first.config.get('clientUrl') as string });
  });
  afterAll(async () => {
    await second.close(true);
    await first.close(true);
  });

  it('serves from either what either stored, and stores content both upload at once once', async () => {
    const [a, b] = [createPostgresAttachmentStore(first), createPostgresAttachmentStore(second)];
    const data = randomBytes(600_000);
    const [fromA, fromB] = await Promise.all([
      a.put(pieces(data, 65_536), 1e7),
      b.put(pieces(data, 4096), 1e7),
    ]);
    expect(fromA).toEqual(fromB);
    expect((await buffer(await b.open(fromA.hash))).equals(data)).toBe(true);
    expect((await buffer(await a.open(fromB.hash))).equals(data)).toBe(true);
    const rows = await fork(first).execute<{ n: number }[]>(
      'select count(*)::int as n from attachment_blobs',
    );
    expect(rows[0]?.n).toBe(1);
  });
});
