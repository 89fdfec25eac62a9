import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createOrm,
  type Em,
  grantRole,
  hashPassword,
  insertUser,
  loadActor,
  migrate,
  type Orm,
  type PasswordHashCost,
  seed,
  textIndexFile,
  User,
} from '@trackline/domain';
import { createScratchDatabase, ensureMigratedTemplate } from './scratch-database.js';
import { createMigratedTestDatabase, TEST_DIALECT, TEST_PG_URL } from './test-database.js';

export const ROOT_PASSWORD = 'root-password';
export const USER_PASSWORD = 'password-1';

/**
 * The scrypt cost of the kit's users. Stored hashes name their own parameters, so the server
 * verifies these exactly like full-cost ones; what a test saves is the ~50 ms and 32 MiB a
 * full-cost hash takes, for each user it creates and each Basic check of that user.
 * Passwords set through the API (and `hashPassword`'s default) keep the production cost.
 */
export const KIT_PASSWORD_COST: PasswordHashCost = { N: 1 << 10, r: 8, p: 1 };

const kitHashes = new Map<string, Promise<string>>();

/** A cheap-cost hash of `password`, computed once per process. */
export function kitPasswordHash(password: string): Promise<string> {
  let hash = kitHashes.get(password);
  if (!hash) {
    hash = hashPassword(password, KIT_PASSWORD_COST);
    kitHashes.set(password, hash);
  }
  return hash;
}

/**
 * A fresh, migrated and seeded database for one test file: in-memory SQLite, or a scratch
 * PostgreSQL database under `TRACKLINE_TEST_DB=postgres` (see `test-database.ts`).
 */
export async function createTestOrm(): Promise<Orm> {
  // Migrating is a no-op on PostgreSQL, whose scratch databases are copies of a migrated template.
  return migratedAndSeeded(await createMigratedTestDatabase());
}

async function migratedAndSeeded(orm: Orm): Promise<Orm> {
  await migrate(orm);
  await seed(orm, { adminPassword: ROOT_PASSWORD, adminPasswordHash: await kitPasswordHash(ROOT_PASSWORD) });
  return orm;
}

/**
 * Like `createTestOrm`, but where a server keeps its data, so that its search engine can run
 * there: on SQLite a file in a directory of its own (the engine's worker processes open the file;
 * an in-memory database has no engine), on PostgreSQL the same scratch database. `remove` deletes
 * the directory once the ORM is closed.
 */
export async function createTestOrmOnDisk(): Promise<{ orm: Orm; file?: string; remove(): void }> {
  if (TEST_DIALECT !== 'sqlite') return { orm: await createTestOrm(), remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'trackline-test-'));
  const file = join(dir, 'test.sqlite');
  const orm = await migratedAndSeeded(await createOrm({ kind: 'sqlite', file }));
  return { orm, file, remove: () => removeScratchDir(dir) };
}

/**
 * Removes a test's scratch folder of SQLite files. A server killed by the test leaves its search
 * processes to notice and close their connections a moment later, which removes or re-creates
 * their `-wal` and `-shm` files (of the main file and of the text index's, `-fts`) while the
 * folder is being emptied: the removal is retried until they are gone (`ENOTEMPTY`).
 */
export function removeScratchDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
}

export const fork = (orm: Orm) => orm.em.fork() as Em;

export async function actorFor(orm: Orm, login: string) {
  const em = fork(orm);
  const user = await em.findOneOrFail(User, { loginKey: login.toLowerCase() });
  return loadActor(em, user);
}

/** Creates a user (password `USER_PASSWORD`) holding `role` globally, or in `project` when given. */
export async function userWithRole(orm: Orm, login: string, role?: string, project?: string) {
  await insertUser(fork(orm), {
    login,
    email: `${login}@example.com`,
    passwordHash: await kitPasswordHash(USER_PASSWORD),
  });
  if (role) await grantRole(fork(orm), await actorFor(orm, 'root'), login, role, project);
  return actorFor(orm, login);
}

/** A database left for a server to open, as `./trackline start` opens its own. */
export type ServerTestDatabase = (
  | { kind: 'sqlite'; file: string; dir: string }
  | { kind: 'postgresql'; url: string; dir: string }
) & {
  /** Removes the database (and the folder beside it) once the server that used it has stopped. */
  remove(): Promise<void>;
};

let sqliteTemplate: Promise<string> | undefined;

/**
 * A migrated and seeded SQLite file, made once per test process and copied for each server: a
 * migration on a file commits each step to disk (about a second for all of them), a copy takes
 * milliseconds. Its WAL is checkpointed into the file (and its text index's) before the copies.
 */
function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'template.sqlite');
    const orm = await migratedAndSeeded(await createOrm({ kind: 'sqlite', file }));
    const em = orm.em.fork() as Em;
    await em.execute('pragma main.wal_checkpoint(truncate)');
    await em.execute('pragma fts.wal_checkpoint(truncate)');
    await orm.close(true);
    return file;
  })();
  return sqliteTemplate;
}

/**
 * A fresh database for a test server, migrated and seeded with the kit's users (root with
 * `ROOT_PASSWORD`) and closed again: a SQLite file in a folder of its own (the server's data
 * folder: its attachments go beside it), or a scratch PostgreSQL database (with a folder for the
 * server's files) under `TRACKLINE_TEST_DB=postgres`. The server opens it as `./trackline start`
 * opens its own (migrations and the seed then find nothing to do).
 */
export async function createServerTestDatabase(): Promise<ServerTestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-server-'));
  if (TEST_DIALECT === 'sqlite') {
    const template = await sqliteTemplateFile();
    const file = join(dir, 'trackline.sqlite');
    copyFileSync(template, file);
    copyFileSync(textIndexFile(template), textIndexFile(file));
    return { kind: 'sqlite', file, dir, remove: async () => removeScratchDir(dir) };
  }
  const scratch = await createScratchDatabase(TEST_PG_URL, {
    template: await ensureMigratedTemplate(TEST_PG_URL),
  });
  try {
    const orm = await createOrm({ kind: 'postgresql', url: scratch.url });
    try {
      await migratedAndSeeded(orm);
    } finally {
      await orm.close(true);
    }
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  return {
    kind: 'postgresql',
    url: scratch.url,
    dir,
    remove: async () => {
      await scratch.drop();
      removeScratchDir(dir);
    },
  };
}
