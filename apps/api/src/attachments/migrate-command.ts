import { resolve } from 'node:path';
import {
  createFileAttachmentStore,
  createOrm,
  type Em,
  migrate,
  moveAttachmentContents,
  SharedDirectoryMismatch,
} from '@trackline/domain';
import { attachmentStoreFromEnv, attachmentsDirFromEnv, databaseFromEnv, type Env } from '../env.js';
import { attachmentStoreLabel, openAttachmentStore } from './attachment-stores.js';

/**
 * `./trackline attachments migrate [--from DIR]`: moves the files of an attachment folder (an
 * earlier version's, TRACKLINE_ATTACHMENTS_DIR by default) into the store the settings choose
 * (the database with DATABASE_URL, or the shared folder). Copies only: the folder is left as it
 * was, to be removed by hand once the servers serve every file. Resumable and safe to run twice,
 * also while servers run (`moveAttachmentContents`). Returns the exit status: 0 when every
 * content rows name is in the store, 1 when some could not be moved (named in the output), 2 for
 * a usage or setting error.
 */
export async function migrateAttachments(
  env: Env,
  args: string[],
  log: (line: string) => void,
): Promise<number> {
  const usage = 'usage: trackline attachments migrate [--from DIR]';
  if (args[0] !== 'migrate' || !(args.length === 1 || (args.length === 3 && args[1] === '--from'))) {
    log(usage);
    return 2;
  }
  const from = resolve(args[2] ?? attachmentsDirFromEnv(env));
  const config = attachmentStoreFromEnv(env);
  if (config.kind === 'directory' && resolve(config.dir) === from) {
    log(`attachments are kept in ${from} already (TRACKLINE_ATTACHMENTS_STORE=directory): nothing to move`);
    return 0;
  }
  const orm = await createOrm(databaseFromEnv(env));
  try {
    // The tables of the database store come with the migrations (the command may run first).
    await migrate(orm);
    const target = await openAttachmentStore(config, orm);
    log(`moving the attachment files of ${from} into ${attachmentStoreLabel(config)}`);
    let done = 0;
    const report = await moveAttachmentContents(
      orm.em.fork() as Em,
      createFileAttachmentStore(from),
      target,
      (hash, outcome) => {
        if (++done % 100 === 0) log(`${done} contents done`);
        if (outcome === 'missing') log(`missing: ${hash} is in no store (its attachments answer 404)`);
        if (outcome === 'damaged')
          log(`damaged: ${from}/${hash.slice(0, 2)}/${hash} no longer has that hash; not moved`);
      },
    );
    log(
      `moved ${report.moved}, already there ${report.present}, missing ${report.missing.length}, damaged ${report.damaged.length}`,
    );
    return report.missing.length + report.damaged.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof SharedDirectoryMismatch)) throw error;
    log(`TRACKLINE_ATTACHMENTS_DIR: ${error.message}`);
    return 2;
  } finally {
    await orm.close(true);
  }
}
