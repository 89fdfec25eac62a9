import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestOrm, TEST_DIALECT } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../../orm/open-orm.js';
import { claimSharedDirectory, DIRECTORY_MARKER_FILE, SharedDirectoryMismatch } from './shared-directory.js';

/*
 * Hosts of one PostgreSQL keeping attachments in a folder must share it: the first host's marker,
 * recorded in the database, must be in every later host's folder. PostgreSQL only (a SQLite
 * database has one host).
 */
describe.runIf(TEST_DIALECT === 'postgresql')('a shared attachment folder', () => {
  let orm: Orm;
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-shared-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    orm = await createTestOrm();
  });
  afterAll(async () => {
    await orm.close(true);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('two hosts starting at once with folders of their own: one claims, the other is refused', async () => {
    const [a, b] = [folder(), folder()];
    const claims = await Promise.allSettled([
      claimSharedDirectory(orm, a, 'host-a'),
      claimSharedDirectory(orm, b, 'host-b'),
    ]);
    const won = claims.filter((c) => c.status === 'fulfilled');
    const lost = claims.filter((c) => c.status === 'rejected');
    expect([won.length, lost.length]).toEqual([1, 1]);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(SharedDirectoryMismatch);
    expect(String((lost[0] as PromiseRejectedResult).reason.message)).toMatch(
      /is not the attachment folder the other hosts of this database use: it lacks the marker \.trackline-attachments that host host-[ab] wrote into/,
    );
    const winner = claims[0]?.status === 'fulfilled' ? a : b;
    // The winner's folder holds the marker; restarting on it (or another mount of it) passes.
    expect(await claimSharedDirectory(orm, winner, 'host-c')).toMatchObject({ created: false });
    const marker = readFileSync(join(winner, DIRECTORY_MARKER_FILE), 'utf8');
    // A folder holding another marker (another installation's folder) is refused too.
    const other = folder();
    writeFileSync(join(other, DIRECTORY_MARKER_FILE), 'f'.repeat(32));
    await expect(claimSharedDirectory(orm, other, 'host-d')).rejects.toThrow(/names another folder/);
    writeFileSync(join(other, DIRECTORY_MARKER_FILE), marker);
    expect(await claimSharedDirectory(orm, other, 'host-d')).toMatchObject({ created: false });
  });
});
