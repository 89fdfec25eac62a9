import { createTestOrm, fork, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateSession, authenticateToken, createSession } from '../auth/authenticate.js';
import { loadActor } from '../auth/load-actor.js';
import { createPermanentToken, revokePermanentToken } from '../auth/tokens.js';
import { Project } from '../model/project.entity.js';
import { Role, RoleGrant } from '../model/role.entity.js';
import { PermanentToken, Session } from '../model/token.entity.js';
import { User } from '../model/user.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { readRow, readRows } from '../orm/statements.js';
import { createProject, deleteProject, listAccessibleProjects } from '../projects/projects.js';
import { getRole, listRoles } from '../roles/roles.js';
import { grantRole, revokeRole } from '../users/users.js';

/** The read models answer what the entities say, on SQLite and on PostgreSQL. */
describe('read models', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createTestOrm();
    await userWithRole(orm, 'reader', 'Developer');
  });
  afterAll(() => orm.close(true));

  const root = async () => loadActor(fork(orm), await fork(orm).findOneOrFail(User, { loginKey: 'root' }));

  it('readRows answers as em.execute, parameters bound (strings, numbers, booleans, null)', async () => {
    const sql =
      'select login, type from users where login_key = ? or id = ? or ? is null or ? = true order by id';
    for (const params of [
      ['reader', -1, 1, false],
      ['nobody', 1, 1, false],
      ['nobody', -1, null, false],
    ]) {
      expect(await readRows(fork(orm), sql, params)).toEqual(await fork(orm).execute(sql, params));
    }
    // Quotes in literals are not placeholders.
    expect(await readRow(fork(orm), "select '?' as q, ? as v", ['x'])).toEqual({ q: '?', v: 'x' });
  });

  it('readRows inside a transaction sees the transaction’s own writes', async () => {
    await fork(orm).transactional(async (em) => {
      em.create(Role, { name: 'Scratch', nameKey: 'scratch', description: 'in flight' });
      await em.flush();
      expect(await readRow(em, 'select description from roles where name_key = ?', ['scratch'])).toEqual({
        description: 'in flight',
      });
      await em.nativeDelete(Role, { nameKey: 'scratch' });
    });
  });

  it('readRows outside a transaction never sees another one’s uncommitted rows', async () => {
    let outside: Promise<unknown> | undefined;
    await expect(
      fork(orm).transactional(async (em) => {
        em.create(Role, { name: 'Uncommitted', nameKey: 'uncommitted', description: '' });
        await em.flush();
        // Not awaited here: on SQLite it waits for the connection until the transaction ends.
        outside = readRow(fork(orm), 'select name from roles where name_key = ?', ['uncommitted']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await outside).toBeUndefined();
  });

  it('roles: getRole and listRoles answer what the Role entities hold', async () => {
    const actor = await root();
    const entities = await fork(orm).find(Role, {}, { orderBy: { nameKey: 'asc' } });
    expect(await listRoles(fork(orm), actor)).toEqual(
      entities.map((r) => ({ name: r.name, description: r.description })),
    );
    for (const role of entities) {
      expect(await getRole(fork(orm), actor, role.name.toUpperCase())).toEqual({
        name: role.name,
        description: role.description,
      });
    }
    await expect(getRole(fork(orm), actor, 'No such role')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('actor: grants follow grants and revocations, as the RoleGrant entities say', async () => {
    const admin = await root();
    await createProject(fork(orm), admin, { shortName: 'RM', name: 'Read models' });
    const user = await fork(orm).findOneOrFail(User, { loginKey: 'reader' });
    const expected = async () => {
      const grants = await fork(orm).find(RoleGrant, { user: user.id }, { populate: ['role.permissions'] });
      const global = new Set<string>();
      const byProject = new Map<number, Set<string>>();
      for (const g of grants) {
        const keys = g.role.permissions.getItems().map((p) => p.key);
        if (!g.project) for (const k of keys) global.add(k);
        else {
          const id = g.project.id;
          byProject.set(id, new Set([...(byProject.get(id) ?? []), ...keys]));
        }
      }
      return { global, byProject };
    };
    const actual = async () => {
      const actor = await loadActor(fork(orm), user);
      return { global: actor.global, byProject: actor.byProject };
    };
    expect(await actual()).toEqual(await expected());
    await grantRole(fork(orm), admin, 'reader', 'Observer', 'RM');
    expect((await actual()).byProject.size).toBe(1);
    expect(await actual()).toEqual(await expected());
    await revokeRole(fork(orm), admin, 'reader', 'Developer');
    expect(await actual()).toEqual(await expected());
    expect((await actual()).global.size).toBe(0);
  });

  it('actor: a token finds its user until revoked; a wrong secret finds nobody', async () => {
    const admin = await root();
    const { token } = await createPermanentToken(fork(orm), admin, 'read-model');
    const entity = await fork(orm).findOneOrFail(
      PermanentToken,
      { name: 'read-model', user: { loginKey: 'root' } },
      { populate: ['user'] },
    );
    expect(await authenticateToken(fork(orm), token)).toEqual({
      id: entity.user.id,
      login: entity.user.login,
      type: entity.user.type,
    });
    expect(await authenticateToken(fork(orm), `${token.slice(0, -2)}xx`)).toBeNull();
    await revokePermanentToken(fork(orm), admin, 'read-model');
    expect(await authenticateToken(fork(orm), token)).toBeNull();
  });

  it('actor: a session finds its user until it expires', async () => {
    const user = await fork(orm).findOneOrFail(User, { loginKey: 'reader' });
    const value = await createSession(fork(orm), user.id);
    expect(await authenticateSession(fork(orm), value)).toEqual({
      id: user.id,
      login: 'reader',
      type: 'user',
    });
    await fork(orm).nativeUpdate(Session, { user: user.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await authenticateSession(fork(orm), value)).toBeNull();
  });

  it('projects: the readable list is what the Project entities say, trash and grants included', async () => {
    const admin = await root();
    for (const shortName of ['PA', 'PB', 'PC'])
      await createProject(fork(orm), admin, { shortName, name: `Project ${shortName}` });
    await grantRole(fork(orm), admin, 'reader', 'Observer', 'PB');
    const reader = await fork(orm).findOneOrFail(User, { loginKey: 'reader' });
    const list = async (actor: Awaited<ReturnType<typeof root>>) =>
      (await listAccessibleProjects(fork(orm), actor)).map((p) => ({
        id: p.id,
        shortName: p.shortName,
        name: p.name,
      }));
    const entities = async (where: object) =>
      (
        await fork(orm).find(Project, { deletedAt: null, ...where }, { orderBy: { shortNameKey: 'asc' } })
      ).map((p) => ({ id: p.id, shortName: p.shortName, name: p.name }));
    expect(await list(await root())).toEqual(await entities({}));
    expect((await list(await loadActor(fork(orm), reader))).map((p) => p.shortName)).toContain('PB');
    await deleteProject(fork(orm), admin, 'PA');
    expect(await list(await root())).toEqual(await entities({}));
    expect((await list(await root())).map((p) => p.shortName)).not.toContain('PA');
  });
});
