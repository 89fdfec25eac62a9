import { PERMISSION_KEYS, type PermissionKey, type UserType } from '@trackline/contracts';
import type { Em } from '../orm/em.js';
import type { Actor, ProjectTrash } from './actor.js';

type GrantRow = { group_id: number | null; project_id: number | null; permission_key: PermissionKey | null };

/**
 * The user's own grants, then one row per group they belong to with that group's grants (a
 * group without grants still gives one row, with null permission, so that membership is known).
 */
const GRANTS_SQL =
  'select null as group_id, g.project_id, rp.permission_key from role_grants g ' +
  'join role_permissions rp on rp.role_id = g.role_id where g.user_id = ? ' +
  'union all ' +
  'select m.group_id, g.project_id, rp.permission_key from group_members m ' +
  'left join group_role_grants g on g.group_id = m.group_id ' +
  'left join role_permissions rp on rp.role_id = g.role_id where m.user_id = ?';

/**
 * Resolves a user's grants with one query (raw SQL: this runs on every request): their own
 * and those of every group they belong to, so that each permission check (commands,
 * suggestions, search, folders, hooks) sees a group's roles without knowing about groups.
 *
 * The root account holds every permission globally whatever its grants say: no edit of roles
 * or grants can lock the installation out of administration, because root always has a way
 * back (it can re-grant and re-add anything).
 */
export async function loadActor(em: Em, user: { id: number; login: string; type: UserType }): Promise<Actor> {
  const rows = await em.getConnection().execute<GrantRow[]>(GRANTS_SQL, [user.id, user.id]);
  const global = new Set<PermissionKey>();
  const byProject = new Map<number, Set<PermissionKey>>();
  const groups = new Set<number>();
  for (const row of rows) {
    if (row.group_id !== null) groups.add(Number(row.group_id));
    if (row.permission_key === null) continue;
    if (row.project_id === null) {
      global.add(row.permission_key);
      continue;
    }
    const id = Number(row.project_id);
    const set = byProject.get(id) ?? new Set<PermissionKey>();
    set.add(row.permission_key);
    byProject.set(id, set);
  }
  if (user.type === 'root') for (const key of PERMISSION_KEYS) global.add(key);
  const trash = await loadProjectTrash(em);
  return {
    userId: user.id,
    login: user.login,
    type: user.type,
    global,
    byProject,
    groups,
    ...(trash ? { trash } : {}),
  };
}

/**
 * The trashed projects, and then the live ones (what a global grant covers); undefined when
 * the trash is empty, which costs one query returning no rows.
 */
export async function loadProjectTrash(em: Em): Promise<ProjectTrash | undefined> {
  const connection = em.getConnection();
  const trashed = await connection.execute<{ id: number }[]>(
    'select id from projects where deleted_at is not null',
  );
  if (trashed.length === 0) return undefined;
  const live = await connection.execute<{ id: number }[]>('select id from projects where deleted_at is null');
  return { ids: new Set(trashed.map((r) => Number(r.id))), live: live.map((r) => Number(r.id)) };
}
