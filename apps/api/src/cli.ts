import { migrateAttachments } from './attachments/migrate-command.js';
import { readEnvOrExit } from './env.js';

/**
 * Commands beside the server, with the server's settings: `node apps/api/dist/cli.js attachments
 * migrate [--from DIR]` (`./trackline attachments migrate`). A bad setting or usage is one line
 * and status 2, as for the server.
 */
const log = (line: string) => console.log(`trackline: ${line}`);
const env = readEnvOrExit();
const [command, ...args] = process.argv.slice(2);
if (command === 'attachments') process.exit(await migrateAttachments(env, args, log));
log('usage: trackline attachments migrate [--from DIR]');
process.exit(2);
