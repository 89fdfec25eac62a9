import { loadActor } from '../auth/load-actor.js';
import type { Orm } from '../orm/create-orm.js';
import type { Em } from '../orm/em.js';
import { migrate } from '../orm/migrate.js';
import { seed } from '../seed/seed.js';
import { User } from '../users/user.entity.js';
import { grantRole, insertUser } from '../users/users.js';
import { createTestDatabase } from './test-database.js';

/**
 * A fresh, migrated and seeded database for one test file: in-memory SQLite, or a scratch
 * PostgreSQL database under `TRACKLINE_TEST_DB=postgres` (see `test-database.ts`).
 */
export async function createTestOrm(): Promise<Orm> {
  const orm = await createTestDatabase();
  await migrate(orm);
  await seed(orm, { adminPassword: 'root-password' });
  return orm;
}

export const fork = (orm: Orm) => orm.em.fork() as Em;

export async function actorFor(orm: Orm, login: string) {
  const em = fork(orm);
  const user = await em.findOneOrFail(User, { loginKey: login.toLowerCase() });
  return loadActor(em, user);
}

/** Creates a user holding `role` globally, or in `project` when given. */
export async function userWithRole(orm: Orm, login: string, role?: string, project?: string) {
  await insertUser(fork(orm), { login, email: `${login}@example.com`, password: 'password-1' });
  if (role) await grantRole(fork(orm), await actorFor(orm, 'root'), login, role, project);
  return actorFor(orm, login);
}
