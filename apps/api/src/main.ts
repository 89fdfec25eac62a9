import cluster from 'node:cluster';
import { runPrimary } from './cluster.js';
import { processCountFromEnv, readEnvOrExit } from './env.js';
import { openAttachments, prepareDatabase, printWhereToGo, serve } from './serve.js';

/**
 * The entry point: one server process, or (TRACKLINE_PROCESSES > 1) a primary that prepares the
 * database once (migrations, `root` and its generated password) and forks that many servers
 * sharing the port. A bad setting is one clear message and exit code 2, without a stack trace.
 */
const env = readEnvOrExit();

const processes = processCountFromEnv(env);
if (processes > 1 && cluster.isPrimary) {
  const { orm, rootPasswordHint } = await prepareDatabase(env);
  // A shared attachment folder is checked once here, before any server process starts.
  await openAttachments(env, orm);
  await orm.close();
  printWhereToGo(env, env.PORT, rootPasswordHint);
  runPrimary({ processes, log: (line) => console.log(`trackline: ${line}`) });
} else {
  await serve(env);
}
