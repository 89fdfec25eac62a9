import { hostname } from 'node:os';
import { resolve } from 'node:path';
import {
  type AttachmentStore,
  claimSharedDirectory,
  countContentsMissingFromDatabase,
  createFileAttachmentStore,
  createPostgresAttachmentStore,
  type Orm,
} from '@trackline/domain';

/**
 * Where attachment contents live (TRACKLINE_ATTACHMENTS_STORE): in the PostgreSQL database, or in
 * a folder, which `shared` says hosts of one PostgreSQL database must share (checked at start).
 */
export type AttachmentStoreConfig =
  | { kind: 'postgres' }
  | { kind: 'directory'; dir: string; shared: boolean };

/**
 * Opens the configured store. A shared folder is claimed first (`claimSharedDirectory`): a host
 * whose folder lacks the marker the first host wrote refuses to start (SharedDirectoryMismatch),
 * rather than answer 404 for every file another host stored.
 */
export async function openAttachmentStore(
  config: AttachmentStoreConfig,
  orm: Orm,
  host: string = hostname(),
): Promise<AttachmentStore> {
  if (config.kind === 'postgres') return createPostgresAttachmentStore(orm);
  if (config.shared) await claimSharedDirectory(orm, resolve(config.dir), host);
  return createFileAttachmentStore(config.dir);
}

/** The start-up line's word for the store: `database` or the folder. */
export const attachmentStoreLabel = (config: AttachmentStoreConfig) =>
  config.kind === 'postgres' ? 'database' : resolve(config.dir);

/**
 * A start-up warning when rows name contents the database lacks (an installation that kept its
 * files in a folder before this version), naming the command that moves them; else null.
 */
export async function attachmentsToMove(config: AttachmentStoreConfig, orm: Orm): Promise<string | null> {
  if (config.kind !== 'postgres') return null;
  const missing = await countContentsMissingFromDatabase(orm);
  return missing === 0
    ? null
    : `${missing} attachment contents are not in the database yet (they answer 404): ` +
        'move the files of the earlier attachment folder with `./trackline attachments migrate` (docs/operations.md)';
}
