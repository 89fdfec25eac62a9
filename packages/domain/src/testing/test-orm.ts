import { type Em, grantRole, insertUser, loadActor, migrate, type Orm, seed, User } from '@trackline/domain';
import { createTestDatabase } from './test-database.js';

export const ROOT_PASSWORD = 'root-password';
export const USER_PASSWORD = 'password-1';

/**
 * A fresh, migrated and seeded database for one test file: in-memory SQLite, or a scratch
 * PostgreSQL database under `TRACKLINE_TEST_DB=postgres` (see `test-database.ts`).
 */
export async function createTestOrm(): Promise<Orm> {
  const orm = await createTestDatabase();
  await migrate(orm);
  await seed(orm, { adminPassword: ROOT_PASSWORD });
  return orm;
}

export const fork = (orm: Orm) => orm.em.fork() as Em;

export async function actorFor(orm: Orm, login: string) {
  const em = fork(orm);
  const user = await em.findOneOrFail(User, { loginKey: login.toLowerCase() });
  return loadActor(em, user);
}

/** Creates a user (password `USER_PASSWORD`) holding `role` globally, or in `project` when given. */
export async function userWithRole(orm: Orm, login: string, role?: string, project?: string) {
  await insertUser(fork(orm), { login, email: `${login}@example.com`, password: USER_PASSWORD });
  if (role) await grantRole(fork(orm), await actorFor(orm, 'root'), login, role, project);
  return actorFor(orm, login);
}
