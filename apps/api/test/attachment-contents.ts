import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AttachmentStore,
  createFileAttachmentStore,
  createPostgresAttachmentStore,
  type Orm,
} from '@trackline/domain';
import { storedContents } from '@trackline/domain/testing';
import { fork, TEST_DIALECT } from './harness.js';

/**
 * The attachment store a test server uses as the production server would on the test's
 * database: on SQLite a folder (one the test can look into), on PostgreSQL the database itself
 * (the server's default there: `store` is left out, so every host of a two-host run uses it).
 * `contents()` lists what the store holds; `uploadsInProgress()` counts the uploads it is receiving.
 */
export function testAttachmentStore() {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-test-attachments-'));
  const folder = TEST_DIALECT === 'sqlite' ? createFileAttachmentStore(dir) : undefined;
  const view = (orm: Orm): AttachmentStore => folder ?? createPostgresAttachmentStore(orm);
  return {
    dir,
    /** For `handler.attachments`: the folder on SQLite, nothing (the server's default) on PostgreSQL. */
    option: folder ? { store: folder } : {},
    contents: (orm: Orm) => storedContents(view(orm)),
    async uploadsInProgress(orm: Orm): Promise<number> {
      if (folder) {
        const tmp = join(dir, 'tmp');
        return existsSync(tmp) ? readdirSync(tmp).length : 0;
      }
      const rows = await fork(orm).execute<{ n: number }[]>(
        'select count(*)::int as n from attachment_blobs where hash is null',
      );
      return Number(rows[0]?.n ?? 0);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
