import type { Em } from '../orm/em.js';
import { readRow, readRows } from '../orm/statements.js';

/** The roles read model: what role reads answer, without hydrating entities. */
export type RoleView = { name: string; description: string };

/** A role by its case-insensitive name. */
export function roleByName(em: Em, name: string): Promise<RoleView | undefined> {
  return readRow<RoleView>(em, 'select name, description from roles where name_key = ?', [
    name.toLowerCase(),
  ]);
}

/** Every role, by name. */
export function allRoles(em: Em): Promise<RoleView[]> {
  return readRows<RoleView>(em, 'select name, description from roles order by name_key');
}
