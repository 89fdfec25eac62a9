import type { PermissionKey, UserType } from '@trackline/contracts';
import type { Em } from '../orm/em.js';
import { toMs, toMsOrNull } from '../orm/row-values.js';
import { readRow, readRows } from '../orm/statements.js';

/**
 * The actor read model: what every authenticated request pays (the credential's user, their
 * grants, the trash), as prepared statements. No cache: grants, tokens and sessions change in
 * other processes too, and these reads cost tens of microseconds.
 */

/** The columns of a user that authentication needs. */
export type AuthenticatedUser = { id: number; login: string; type: UserType };

type UserRow = { id: number; login: string; type: UserType };
const toUser = (r: UserRow): AuthenticatedUser => ({ id: Number(r.id), login: r.login, type: r.type });

/** A permanent token by its owner's login key and its name, with the owner. */
export async function findTokenRow(
  em: Em,
  loginKey: string,
  name: string,
): Promise<{
  tokenId: number;
  secretHash: string;
  lastUsedAt: number | null;
  user: AuthenticatedUser;
} | null> {
  const row = await readRow<UserRow & { token_id: number; secret_hash: string; last_used_at: unknown }>(
    em,
    'select t.id as token_id, t.secret_hash, t.last_used_at, u.id, u.login, u.type ' +
      'from permanent_tokens t join users u on u.id = t.user_id where u.login_key = ? and t.name = ?',
    [loginKey, name],
  );
  return row
    ? {
        tokenId: Number(row.token_id),
        secretHash: row.secret_hash,
        lastUsedAt: toMsOrNull(row.last_used_at),
        user: toUser(row),
      }
    : null;
}

/** A session by the hash of its cookie value, with its user. */
export async function findSessionRow(
  em: Em,
  idHash: string,
): Promise<{ expiresAt: number; user: AuthenticatedUser } | null> {
  const row = await readRow<UserRow & { expires_at: unknown }>(
    em,
    'select s.expires_at, u.id, u.login, u.type from sessions s join users u on u.id = s.user_id where s.id_hash = ?',
    [idHash],
  );
  return row ? { expiresAt: toMs(row.expires_at), user: toUser(row) } : null;
}

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

/** The user's grants, their own and their groups' (see `GRANTS_SQL`). */
export function grantRows(
  em: Em,
  userId: number,
): Promise<{ group_id: number | null; project_id: number | null; permission_key: PermissionKey | null }[]> {
  return readRows(em, GRANTS_SQL, [userId, userId]);
}

/** Ids of the projects in the trash (usually none). */
export async function trashedProjectIds(em: Em): Promise<number[]> {
  const rows = await readRows<{ id: number }>(em, 'select id from projects where deleted_at is not null');
  return rows.map((r) => Number(r.id));
}

/** Ids of the live projects. */
export async function liveProjectIds(em: Em): Promise<number[]> {
  const rows = await readRows<{ id: number }>(em, 'select id from projects where deleted_at is null');
  return rows.map((r) => Number(r.id));
}

/** A user by id with their password hash (a remembered Basic pair is checked against it). */
export async function findUserWithPassword(
  em: Em,
  id: number,
): Promise<(AuthenticatedUser & { passwordHash: string | null }) | null> {
  const row = await readRow<UserRow & { password_hash: string | null }>(
    em,
    'select id, login, type, password_hash from users where id = ?',
    [id],
  );
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}
