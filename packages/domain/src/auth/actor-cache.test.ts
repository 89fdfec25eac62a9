import { createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../model/user.entity.js';
import { readAuthEpoch } from '../orm/epoch-cache.js';
import { dialectOf, type Orm } from '../orm/open-orm.js';
import { createProject, deleteProject } from '../projects/projects.js';
import { grantRole, revokeRole } from '../users/users.js';
import type { Actor } from './actor.js';
import { ActorCache } from './actor-cache.js';
import { createSession } from './authenticate.js';
import { loadActor } from './load-actor.js';
import { createPermanentToken, revokePermanentToken } from './tokens.js';

/** Every table whose rows can change what a credential resolves to, and the triggers on it. */
const EXPECTED_TRIGGERS = [
  'users_update',
  'users_delete',
  'sessions_update',
  'sessions_delete',
  'permanent_tokens_update',
  'permanent_tokens_delete',
  'projects_insert',
  'projects_update',
  'projects_delete',
  ...['role_grants', 'role_permissions', 'group_members', 'group_role_grants'].flatMap((t) =>
    ['insert', 'update', 'delete'].map((e) => `${t}_${e}`),
  ),
].map((name) => `auth_epoch_${name}`);

/** Every table a command vocabulary is built from (migration 0013). */
const EXPECTED_VOCABULARY_TRIGGERS = [
  'custom_fields_update',
  'custom_fields_aliases_update',
  'projects_insert',
  'projects_update',
  'projects_delete',
  'users_insert',
  'users_update',
  'users_delete',
  ...[
    'project_fields',
    'field_values',
    'bundle_users',
    'bundle_groups',
    'group_members',
    'tags',
    'issue_link_types',
    'user_groups',
    'work_types',
    'project_time_tracking',
  ].flatMap((t) => ['insert', 'update', 'delete'].map((e) => `${t}_${e}`)),
].map((name) => `vocabulary_epoch_${name}`);

describe('the authorisation epoch (migration 0012)', () => {
  let orm: Orm;
  let admin: Actor;
  beforeAll(async () => {
    orm = await createTestOrm();
    await userWithRole(orm, 'dev', 'Developer');
    admin = await loadActor(fork(orm), await fork(orm).findOneOrFail(User, { loginKey: 'root' }));
    await createProject(fork(orm), admin, { shortName: 'EP', name: 'Epoch' });
  });
  afterAll(() => orm.close(true));

  const epoch = () => readAuthEpoch(fork(orm));
  /** Row `id` of the epochs table (1: authorisation, 2: vocabulary). */
  const epochRow = async (id: number) =>
    String(
      (await fork(orm).execute<{ n: unknown }[]>('select n from trackline_auth_epoch where id = ?', [id]))[0]
        ?.n,
    );
  const run = (sql: string, params: unknown[] = []) => fork(orm).getConnection().execute(sql, params, 'run');
  /** Whether `change` moved epoch `id` (the authorisation epoch by default). */
  async function bumps(change: () => Promise<unknown>, id = 1): Promise<boolean> {
    const before = await epochRow(id);
    await change();
    return (await epochRow(id)) !== before;
  }

  it('has a trigger on every table an actor or a vocabulary is built from (a table rebuild would drop one)', async () => {
    const rows =
      dialectOf(orm) === 'postgresql'
        ? await fork(orm).execute<{ name: string }[]>(
            "select tgname as name from pg_trigger where tgname like '%\\_epoch\\_%'",
          )
        : await fork(orm).execute<{ name: string }[]>(
            "select name from sqlite_master where type = 'trigger' and name like '%\\_epoch\\_%' escape '\\'",
          );
    // PostgreSQL's TRUNCATE fires no delete trigger: each delete trigger has a truncate one beside it (0030).
    const truncates = (names: string[]) =>
      dialectOf(orm) === 'postgresql'
        ? names.filter((n) => n.endsWith('_delete')).map((n) => n.replace(/_delete$/, '_truncate'))
        : [];
    expect(rows.map((r) => r.name).sort()).toEqual(
      [
        ...EXPECTED_TRIGGERS,
        ...EXPECTED_VOCABULARY_TRIGGERS,
        ...truncates(EXPECTED_TRIGGERS),
        ...truncates(EXPECTED_VOCABULARY_TRIGGERS),
      ].sort(),
    );
  });

  it('moves the vocabulary epoch on fields, values, users, tags and link types, not on issue writes', async () => {
    const moves = (change: () => Promise<unknown>) => bumps(change, 2);
    expect(await moves(() => run("update users set full_name = 'Dev Eloper' where login_key = 'dev'"))).toBe(
      true,
    );
    expect(await moves(() => run('update issue_link_types set outward_name = outward_name'))).toBe(true);
    expect(await moves(() => run("update users set email = 'dev@example.com' where login_key = 'dev'"))).toBe(
      false,
    );
    // A prototype made private leaves the vocabularies of those who may not read it (migration 0016).
    expect(await moves(() => run("update custom_fields set is_private = true where name_key = 'type'"))).toBe(
      true,
    );
    expect(await moves(() => run("update custom_fields set ordinal = ordinal where name_key = 'type'"))).toBe(
      false,
    );
    await run("update custom_fields set is_private = false where name_key = 'type'");
    expect(
      await moves(() => run("update projects set next_number = next_number where short_name_key = 'ep'")),
    ).toBe(false);
  });

  it('moves on grants, tokens, sessions, passwords and the trash, through use cases or plain SQL', async () => {
    expect(await bumps(() => grantRole(fork(orm), admin, 'dev', 'Observer', 'EP'))).toBe(true);
    expect(await bumps(() => revokeRole(fork(orm), admin, 'dev', 'Observer', 'EP'))).toBe(true);
    await createPermanentToken(fork(orm), admin, 'epoch');
    expect(await bumps(() => revokePermanentToken(fork(orm), admin, 'epoch'))).toBe(true);
    const user = await fork(orm).findOneOrFail(User, { loginKey: 'dev' });
    const session = await createSession(fork(orm), user.id);
    expect(session).toBeTruthy();
    expect(await bumps(() => run('delete from sessions where user_id = ?', [user.id]))).toBe(true);
    expect(await bumps(() => run("update users set password_hash = 'x' where id = ?", [user.id]))).toBe(true);
    expect(await bumps(() => run("update users set type = 'user' where id = ?", [user.id]))).toBe(true);
    expect(
      await bumps(() =>
        run(
          "update role_permissions set permission_key = permission_key where permission_key = 'READ_ISSUE'",
        ),
      ),
    ).toBe(true);
    expect(await bumps(() => createProject(fork(orm), admin, { shortName: 'EQ', name: 'Epoch 2' }))).toBe(
      true,
    );
    expect(await bumps(() => deleteProject(fork(orm), admin, 'EQ'))).toBe(true);
  });

  it('stays put on writes that cannot change an actor (token use, names, issue numbers)', async () => {
    await createPermanentToken(fork(orm), admin, 'touch');
    expect(await bumps(() => run('update permanent_tokens set last_used_at = created_at'))).toBe(false);
    expect(await bumps(() => run("update users set full_name = 'Renamed' where login_key = 'dev'"))).toBe(
      false,
    );
    expect(
      await bumps(() => run("update projects set next_number = next_number + 1 where short_name_key = 'ep'")),
    ).toBe(false);
  });

  it('is not moved by a change that rolls back', async () => {
    const before = await epoch();
    await expect(
      fork(orm).transactional(async (em) => {
        await grantRole(em, admin, 'dev', 'Observer', 'EP');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await epoch()).toBe(before);
  });

  it('moves both epochs when a watched table is emptied at once (TRUNCATE on PostgreSQL, delete on SQLite)', async () => {
    const empty = (table: string) =>
      run(dialectOf(orm) === 'postgresql' ? `truncate table ${table} cascade` : `delete from ${table}`);
    const user = await fork(orm).findOneOrFail(User, { loginKey: 'dev' });
    await createSession(fork(orm), user.id);
    expect(await bumps(() => empty('sessions'))).toBe(true);
    await createPermanentToken(fork(orm), admin, 'emptied');
    expect(await bumps(() => empty('permanent_tokens'))).toBe(true);
    // Link types are referenced by links: CASCADE truncates those too, and fires for each table.
    expect(await bumps(() => empty('issue_link_types'), 2)).toBe(true);
    // role_grants last: the other tests' actors keep their grants until here.
    await grantRole(fork(orm), admin, 'dev', 'Observer', 'EP');
    expect(await bumps(() => empty('role_grants'))).toBe(true);
  });
});

describe('ActorCache', () => {
  const actor = (projects: number): Actor => ({
    userId: 1,
    login: 'a',
    type: 'user',
    global: new Set(),
    byProject: new Map(Array.from({ length: projects }, (_, i) => [i, new Set(['READ_ISSUE' as const])])),
  });

  it('answers only under the epoch an entry was stored with', () => {
    const cache = new ActorCache();
    cache.set('k', '7', { actor: actor(1) });
    expect(cache.get('k', '7')?.actor.login).toBe('a');
    expect(cache.get('k', '8')).toBeUndefined();
    // A stale entry is gone, even for its old epoch.
    expect(cache.get('k', '7')).toBeUndefined();
  });

  it('lets a remembered session end on time', () => {
    const cache = new ActorCache();
    cache.set('s', '1', { actor: actor(1), expiresAt: Date.now() - 1 });
    expect(cache.get('s', '1')).toBeUndefined();
  });

  it('stays within its byte bound, dropping the oldest entries first', () => {
    const cache = new ActorCache(20_000);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, '1', { actor: actor(20) });
    expect(cache.size.bytes).toBeLessThanOrEqual(20_000);
    expect(cache.size.entries).toBeGreaterThan(0);
    expect(cache.get('k49', '1')).toBeDefined();
    expect(cache.get('k0', '1')).toBeUndefined();
    // An entry larger than the whole bound is not kept at all.
    cache.set('huge', '1', { actor: actor(10_000) });
    expect(cache.get('huge', '1')).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(20_000);
  });
});
