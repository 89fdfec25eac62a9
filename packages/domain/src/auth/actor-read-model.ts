import type { PermissionKey, UserType } from '@trackline/contracts';
import { sql } from 'kysely';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toMs, toMsOrNull } from '../orm/row-values.js';
import { type Param, prepareRead } from '../orm/typed-query.js';

/**
 * The actor read model: what every authenticated request pays (the credential's user, their
 * grants, the trash), as prepared statements. No cache: grants, tokens and sessions change in
 * other processes too, and these reads cost tens of microseconds.
 */

/** The columns of a user that authentication needs. */
export type AuthenticatedUser = { id: number; login: string; type: UserType };

const toUser = (r: { id: number; login: string; type: UserType }): AuthenticatedUser => ({
  id: Number(r.id),
  login: r.login,
  type: r.type,
});

const tokenQuery = prepareRead((param: Param<{ loginKey: string; name: string }>) =>
  tables
    .selectFrom('permanent_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id as token_id', 't.secret_hash', 't.last_used_at', 'u.id', 'u.login', 'u.type'])
    .where('u.login_key', '=', param('loginKey'))
    .where('t.name', '=', param('name'))
    .where('u.banned', '=', sql.lit(false)),
);

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
  const row = await tokenQuery.first(em, { loginKey, name });
  return row
    ? {
        tokenId: Number(row.token_id),
        secretHash: row.secret_hash,
        lastUsedAt: toMsOrNull(row.last_used_at),
        user: toUser(row),
      }
    : null;
}

const sessionQuery = prepareRead((param: Param<{ idHash: string }>) =>
  tables
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.expires_at', 'u.id', 'u.login', 'u.type'])
    .where('s.id_hash', '=', param('idHash'))
    .where('u.banned', '=', sql.lit(false)),
);

/** A session by the hash of its cookie value, with its user. */
export async function findSessionRow(
  em: Em,
  idHash: string,
): Promise<{ expiresAt: number; user: AuthenticatedUser } | null> {
  const row = await sessionQuery.first(em, { idHash });
  return row ? { expiresAt: toMs(row.expires_at), user: toUser(row) } : null;
}

const ownGrantsQuery = prepareRead((param: Param<{ userId: number }>) =>
  tables
    .selectFrom('role_grants as g')
    .innerJoin('role_permissions as rp', 'rp.role_id', 'g.role_id')
    .select(['g.project_id', 'rp.permission_key'])
    .where('g.user_id', '=', param('userId')),
);
const groupGrantsQuery = prepareRead((param: Param<{ userId: number }>) =>
  tables
    .selectFrom('group_members as m')
    .leftJoin('group_role_grants as g', 'g.group_id', 'm.group_id')
    .leftJoin('role_permissions as rp', 'rp.role_id', 'g.role_id')
    .select(['m.group_id', 'g.project_id', 'rp.permission_key'])
    .where('m.user_id', '=', param('userId')),
);

/**
 * The user's grants: their own (`group_id` null), then one row per group they belong to with
 * that group's grants (a group without grants still gives one row, with null permission, so that
 * membership is known). Read once per authorisation epoch (the actor cache), so two statements.
 */
export async function grantRows(
  em: Em,
  userId: number,
): Promise<{ group_id: number | null; project_id: number | null; permission_key: PermissionKey | null }[]> {
  const own = await ownGrantsQuery.all(em, { userId });
  const viaGroups = await groupGrantsQuery.all(em, { userId });
  return [...own.map((r) => ({ group_id: null, ...r })), ...viaGroups];
}

const trashedQuery = prepareRead(() =>
  tables.selectFrom('projects').select('id').where('deleted_at', 'is not', null),
);
const liveQuery = prepareRead(() =>
  tables.selectFrom('projects').select('id').where('deleted_at', 'is', null),
);

/** Ids of the projects in the trash (usually none). */
export async function trashedProjectIds(em: Em): Promise<number[]> {
  return (await trashedQuery.all(em, {})).map((r) => Number(r.id));
}

/** Ids of the live projects. */
export async function liveProjectIds(em: Em): Promise<number[]> {
  return (await liveQuery.all(em, {})).map((r) => Number(r.id));
}

const userWithPasswordQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('users')
    .select(['id', 'login', 'type', 'password_hash'])
    .where('id', '=', param('id'))
    .where('banned', '=', sql.lit(false)),
);

const userQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('users')
    .select(['id', 'login', 'type'])
    .where('id', '=', param('id'))
    .where('banned', '=', sql.lit(false)),
);

/** The columns of a user that authentication needs, by id (null: no such user). */
export async function findUser(em: Em, id: number): Promise<AuthenticatedUser | null> {
  const row = await userQuery.first(em, { id });
  return row ? toUser(row) : null;
}

/** A user by id with their password hash (a remembered Basic pair is checked against it). */
export async function findUserWithPassword(
  em: Em,
  id: number,
): Promise<(AuthenticatedUser & { passwordHash: string | null }) | null> {
  const row = await userWithPasswordQuery.first(em, { id });
  return row ? { ...toUser(row), passwordHash: row.password_hash ?? null } : null;
}
