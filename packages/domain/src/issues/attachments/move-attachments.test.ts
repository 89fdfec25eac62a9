import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { actorFor, createTestOrm, fork, storedContents, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import { type AttachmentStore, createFileAttachmentStore } from './attachment-store.js';
import { createPostgresAttachmentStore } from './attachment-store-pg.js';
import { addAttachment, listAttachments, openAttachment } from './attachments.js';
import { moveAttachmentContents } from './move-attachments.js';

/*
 * The move of an installation's attachment folder into the store it uses now (PostgreSQL: the
 * database; SQLite: another folder, as a shared one would be), interrupted half-way through a
 * file and run again: every attachment readable byte for byte, each content stored once.
 */
describe(`moving attachment files into the ${TEST_DIALECT === 'sqlite' ? 'shared folder' : 'database'}`, () => {
  let orm: Orm;
  let root: Actor;
  const dirs: string[] = [];
  let old: AttachmentStore;
  let target: AttachmentStore;
  const contents = new Map<number, Buffer>();
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-move-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    old = createFileAttachmentStore(folder());
    target =
      TEST_DIALECT === 'sqlite' ? createFileAttachmentStore(folder()) : createPostgresAttachmentStore(orm);
    await createProject(fork(orm), root, { shortName: 'MOV', name: 'Move' });
    for (const summary of ['one', 'two']) await createIssue(fork(orm), root, { project: 'MOV', summary });
    // 12 attachments of 9 contents (three uploaded twice, once on each issue), 1 byte to 600 KB.
    const sizes = [1, 2, 100, 4096, 70_000, 262_144, 262_145, 600_000, 9];
    for (const [i, size] of sizes.entries()) {
      const data = randomBytes(size);
      for (const issue of i % 3 === 0 ? ['MOV-1', 'MOV-2'] : ['MOV-1']) {
        const added = await addAttachment(fork(orm), root, old, {
          issue,
          name: `f${i}.bin`,
          source: Readable.from([data]),
          maxBytes: 1e7,
        });
        contents.set(added.id, data);
      }
    }
  });
  afterAll(async () => {
    await orm.close(true);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const distinct = async () =>
    (
      await fork(orm).execute<{ content_hash: string }[]>(
        'select distinct content_hash from issue_attachments order by content_hash',
      )
    ).map((r) => r.content_hash);
  const stored = () => storedContents(target);

  it('resumes after an interruption half-way through a file; a second full run copies nothing', async () => {
    const hashes = await distinct();
    expect(hashes).toHaveLength(9);
    // The source breaks half-way through the sixth content, as a crash would stop the copy.
    let opened = 0;
    const breaking: AttachmentStore = {
      ...old,
      async open(hash) {
        const whole = await buffer(await old.open(hash));
        if (++opened < 6) return Readable.from([whole]);
        return Readable.from(
          (async function* () {
            yield whole.subarray(0, whole.length >> 1);
            throw new Error('interrupted');
          })(),
        );
      },
    };
    await expect(moveAttachmentContents(fork(orm), breaking, target)).rejects.toThrow('interrupted');
    expect(await stored()).toEqual(hashes.slice(0, 5));

    const resumed = await moveAttachmentContents(fork(orm), old, target);
    expect(resumed).toEqual({ moved: 4, present: 5, missing: [], damaged: [] });
    expect(await stored()).toEqual(hashes);
    if (TEST_DIALECT === 'postgresql') {
      // Each content once, in full: its chunks add up to its size, nothing half-written is left.
      const rows = await fork(orm).execute<{ blobs: number; named: number; bytes: string; sizes: string }[]>(
        'select count(*)::int as blobs, count(hash)::int as named, ' +
          '(select coalesce(sum(length(data)), 0) from attachment_chunks)::text as bytes, sum(size)::text as sizes ' +
          'from attachment_blobs',
      );
      expect(rows[0]).toMatchObject({ blobs: 9, named: 9 });
      expect(rows[0]?.bytes).toBe(rows[0]?.sizes);
    }
    // Served from the new store alone, byte for byte.
    for (const issue of ['MOV-1', 'MOV-2'])
      for (const a of await listAttachments(fork(orm), root, issue)) {
        const file = await openAttachment(fork(orm), root, target, issue, a.id);
        expect((await buffer(file.stream)).equals(contents.get(a.id) as Buffer)).toBe(true);
      }

    expect(await moveAttachmentContents(fork(orm), old, target)).toEqual({
      moved: 0,
      present: 9,
      missing: [],
      damaged: [],
    });
    expect(await stored()).toEqual(hashes);
  });

  it('names the contents neither store holds, and the damaged ones, and copies neither', async () => {
    const lost = 'a'.repeat(64);
    const damagedFolder = folder();
    const damaged = createFileAttachmentStore(damagedFolder);
    const { hash } = await damaged.put(Readable.from([Buffer.from('the original bytes')]), 100);
    // The file under that name now holds other bytes (a damaged disk, a hand edit).
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(damagedFolder, hash.slice(0, 2), hash), 'other bytes');
    for (const content of [lost, hash])
      await fork(orm).execute(
        `insert into issue_attachments (issue_id, name, content_hash, size, content_type, author_id, created_at)
         select i.id, 'x', ?, 1, 'text/plain', u.id, ? from issues i, users u where i.number_in_project = 1 and u.login = 'root'`,
        [content, new Date()],
      );
    const report = await moveAttachmentContents(fork(orm), damaged, target);
    expect(report).toMatchObject({ moved: 0, present: 9, missing: [lost], damaged: [hash] });
    expect(await target.has(hash)).toBe(false);
  });
});
