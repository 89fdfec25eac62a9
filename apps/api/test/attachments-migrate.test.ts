import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import {
  type Actor,
  type AttachmentStore,
  addAttachment,
  createFileAttachmentStore,
  createIssue,
  createOrm,
  createPostgresAttachmentStore,
  createProject,
  listAttachments,
  migrate,
  type Orm,
  openAttachment,
  seed,
} from '@trackline/domain';
import { createScratchDatabase, type ScratchDatabase, storedContents } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsToMove } from '../src/attachments/attachment-stores.js';
import { actorFor, fork, TEST_DIALECT, TEST_PG_URL } from './harness.js';

/**
 * `./trackline attachments migrate` (dist/cli.js) on an installation that kept its files in a
 * folder: on PostgreSQL into the database (killed with SIGKILL half-way, then run again: every
 * file readable, none stored twice), on SQLite into another folder (there is nothing to move when
 * the folder is the store already). The command runs as a process, with the server's settings.
 */

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const FILES = 40;

type Run = {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; output: string }>;
};
function run(env: Record<string, string>, args: string[] = []): Run {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, [CLI, 'attachments', 'migrate', ...args], {
    env: { ...base, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const done = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, done };
}

describe(`trackline attachments migrate (${TEST_DIALECT})`, () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-migrate-'));
    dirs.push(dir);
    return dir;
  };
  let scratch: ScratchDatabase | undefined;
  let orm: Orm;
  let root: Actor;
  let oldFolder: string;
  let env: Record<string, string>;
  let args: string[];
  let target: AttachmentStore;
  const contents = new Map<number, Buffer>();

  beforeAll(async () => {
    oldFolder = folder();
    if (TEST_DIALECT === 'postgresql') {
      scratch = await createScratchDatabase(TEST_PG_URL);
      orm = await createOrm({ kind: 'postgresql', url: scratch.url });
      env = { DATABASE_URL: scratch.url, TRACKLINE_ATTACHMENTS_DIR: oldFolder };
      args = [];
      target = createPostgresAttachmentStore(orm);
    } else {
      const file = join(folder(), 'trackline.sqlite');
      orm = await createOrm({ kind: 'sqlite', file });
      const shared = folder();
      env = {
        TRACKLINE_DB: file,
        TRACKLINE_ATTACHMENTS_STORE: 'directory',
        TRACKLINE_ATTACHMENTS_DIR: shared,
      };
      args = ['--from', oldFolder];
      target = createFileAttachmentStore(shared);
    }
    await migrate(orm);
    await seed(orm, { adminPassword: 'migrate-password' });
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'MIG', name: 'Migrate' });
    await createIssue(fork(orm), root, { project: 'MIG', summary: 'files' });
    // What an earlier version left: rows, and their files in its folder (every fifth one twice).
    const old = createFileAttachmentStore(oldFolder);
    for (let i = 0; i < FILES; i++) {
      const data = randomBytes(i === 0 ? 1 : 300_000 + i);
      for (let copy = 0; copy < (i % 5 === 0 ? 2 : 1); copy++) {
        const added = await addAttachment(fork(orm), root, old, {
          issue: 'MIG-1',
          name: `f${i}.bin`,
          source: Readable.from([data]),
          maxBytes: 1e7,
        });
        contents.set(added.id, data);
      }
    }
  });
  afterAll(async () => {
    await orm?.close(true);
    await scratch?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(TEST_DIALECT === 'postgresql')(
    'killed half-way, then run again: every file readable, none twice',
    async () => {
      // What a server starting now says (serve.ts): the files to move, and the command.
      expect(await attachmentsToMove({ kind: 'postgres' }, orm)).toMatch(
        new RegExp(
          `^${FILES} attachment contents are not in the database yet .*\\./trackline attachments migrate`,
        ),
      );
      const first = run(env, args);
      // Killed as soon as the first content is in (a crash in the middle of the next one).
      for (let i = 0; i < 3000 && (await storedContents(target)).length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      first.child.kill('SIGKILL');
      const killed = await first.done;
      expect(killed.signal, killed.output).toBe('SIGKILL');
      const before = (await storedContents(target)).length;
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(FILES);

      const second = await run(env, args).done;
      expect(second.code, second.output).toBe(0);
      const [, moved, present] =
        /moved (\d+), already there (\d+), missing 0, damaged 0/.exec(second.output) ?? [];
      expect(Number(moved) + Number(present), second.output).toBe(FILES);
      expect(Number(present)).toBeGreaterThanOrEqual(before);
      // Each content once, every byte of it; the copy the kill cut short is no content.
      const rows = await fork(orm).execute<{ named: number; bytes: string; sizes: string }[]>(
        'select count(hash)::int as named, sum(size) filter (where hash is not null)::text as sizes, ' +
          '(select sum(length(c.data)) from attachment_chunks c join attachment_blobs b on b.id = c.blob_id where b.hash is not null)::text as bytes ' +
          'from attachment_blobs',
      );
      expect(rows[0]?.named).toBe(FILES);
      expect(rows[0]?.bytes).toBe(rows[0]?.sizes);
      await expectEveryFileReadable();

      const third = await run(env, args).done;
      expect(third.code, third.output).toBe(0);
      expect(third.output).toMatch(`moved 0, already there ${FILES}, missing 0, damaged 0`);
    },
  );

  it.runIf(TEST_DIALECT === 'sqlite')(
    'into another folder, run twice; nothing to move into the folder itself',
    async () => {
      const once = await run(env, args).done;
      expect(once.code, once.output).toBe(0);
      expect(once.output).toMatch(`moved ${FILES}, already there 0, missing 0, damaged 0`);
      expect((await storedContents(target)).length).toBe(FILES);
      await expectEveryFileReadable();
      const twice = await run(env, args).done;
      expect(twice.output).toMatch(`moved 0, already there ${FILES}, missing 0, damaged 0`);
      const itself = await run({ ...env, TRACKLINE_ATTACHMENTS_DIR: oldFolder }).done;
      expect(itself.code, itself.output).toBe(0);
      expect(itself.output).toMatch(/attachments are kept in .* already .*: nothing to move/);
    },
  );

  it('refuses other usage with one line and status 2', async () => {
    const bad = await run(env, ['--from']).done;
    expect([bad.code, bad.output.trim()]).toEqual([
      2,
      'trackline: usage: trackline attachments migrate [--from DIR]',
    ]);
  });

  async function expectEveryFileReadable() {
    const listed = await listAttachments(fork(orm), root, 'MIG-1');
    expect(listed.length).toBe(contents.size);
    for (const a of listed) {
      const file = await openAttachment(fork(orm), root, target, 'MIG-1', a.id);
      expect((await buffer(file.stream)).equals(contents.get(a.id) as Buffer)).toBe(true);
    }
  }
});
