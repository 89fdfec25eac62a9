import { addRolePermission, createRole } from '@trackline/domain';
import { actorFor, fork, type TestServer, userWithRole } from '../harness.js';

/** A role made of exactly `permissions`, granted to a new user (globally, or in `project`). */
export async function holderOf(server: TestServer, login: string, permissions: string[], project?: string) {
  const root = await actorFor(server.orm, 'root');
  const role = `Only_${login}`;
  await createRole(fork(server.orm), root, role, 'single permissions');
  for (const key of permissions) await addRolePermission(fork(server.orm), root, role, key);
  await userWithRole(server.orm, login, role, project);
  return role;
}
