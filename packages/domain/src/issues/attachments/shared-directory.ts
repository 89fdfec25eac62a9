import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Em } from '../../orm/em.js';
import type { Orm } from '../../orm/open-orm.js';
import { toMs } from '../../orm/row-values.js';
import { inTransaction } from '../../orm/transaction.js';

/** The marker file of a shared attachment folder (beside the content fans, never a content). */
export const DIRECTORY_MARKER_FILE = '.trackline-attachments';

/** A host's folder is not the folder the other hosts of the database store attachments in. */
export class SharedDirectoryMismatch extends Error {}

/**
 * Hosts of one PostgreSQL that keep attachments in a folder must all use the same folder (a
 * network file system): a host with a folder of its own would answer 404 for every file another
 * host stored. The first host to start writes a marker (a random name) into its folder and
 * records it in the database (`attachment_directory`, migration 0056); every host starting later
 * must find that marker in its folder, or it does not start. The check runs under a lock, so two
 * hosts starting at once cannot both write a marker of their own.
 */
export async function claimSharedDirectory(
  orm: Orm,
  dir: string,
  host: string,
): Promise<{ created: boolean; marker: string }> {
  return inTransaction(orm.em.fork() as Em, async (tx) => {
    const conn = tx.getConnection();
    const ctx = tx.getTransactionContext();
    await conn.execute('select pg_advisory_xact_lock(727005)', [], 'all', ctx);
    const [recorded] = await conn.execute<
      { marker: string; host: string; path: string; created_at: unknown }[]
    >('select marker, host, path, created_at from attachment_directory where id = 1', [], 'all', ctx);
    const file = join(dir, DIRECTORY_MARKER_FILE);
    if (recorded) {
      const found = (await readFile(file, 'utf8').catch(() => '')).trim();
      if (found !== recorded.marker)
        throw new SharedDirectoryMismatch(
          `${dir} is not the attachment folder the other hosts of this database use: ` +
            `${found ? `its marker ${DIRECTORY_MARKER_FILE} names another folder` : `it lacks the marker ${DIRECTORY_MARKER_FILE}`} ` +
            `that host ${recorded.host} wrote into ${recorded.path} on ${new Date(toMs(recorded.created_at)).toISOString()}. ` +
            'Mount the shared folder there, or keep attachments in the database (TRACKLINE_ATTACHMENTS_STORE=postgres).',
        );
      return { created: false, marker: recorded.marker };
    }
    const marker = randomBytes(16).toString('hex');
    await mkdir(dir, { recursive: true });
    // Written whole or not at all: a host reading it never finds half a marker.
    const temporary = `${file}.${randomBytes(4).toString('hex')}`;
    await writeFile(temporary, `${marker}\n`);
    await rename(temporary, file);
    await conn.execute(
      'insert into attachment_directory (id, marker, host, path) values (1, ?, ?, ?)',
      [marker, host.slice(0, 255), dir],
      'run',
      ctx,
    );
    return { created: true, marker };
  });
}
