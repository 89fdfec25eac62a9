import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareRead } from '../orm/typed-query.js';

/** The roles read model: what role reads answer, without hydrating entities. */
export type RoleView = { name: string; description: string };

const roleByNameQuery = prepareRead((param: Param<{ nameKey: string }>) =>
  tables.selectFrom('roles').select(['name', 'description']).where('name_key', '=', param('nameKey')),
);
const allRolesQuery = prepareRead(() =>
  tables.selectFrom('roles').select(['name', 'description']).orderBy('name_key'),
);

/** A role by its case-insensitive name. */
export function roleByName(em: Em, name: string): Promise<RoleView | undefined> {
  return roleByNameQuery.first(em, { nameKey: name.toLowerCase() });
}

/** Every role, by name. */
export function allRoles(em: Em): Promise<RoleView[]> {
  return allRolesQuery.all(em, {});
}
