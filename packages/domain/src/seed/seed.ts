import { PERMISSIONS } from '@trackline/contracts';
import { randomSecret } from '../auth/secrets.js';
import { groupNameKey, normalizeStoredGroupNames } from '../groups/group-names.js';
import { Group } from '../model/group.entity.js';
import { IssueLinkType } from '../model/link-type.entity.js';
import { Permission, Role, RoleGrant } from '../model/role.entity.js';
import {
  DELETED_USER,
  SEED_GROUPS,
  SEED_LINK_TYPES,
  SEED_ROLES,
  SYSTEM_ACCOUNTS,
} from '../model/seed-data.js';
import { User } from '../model/user.entity.js';
import type { Em } from '../orm/em.js';
import { dialectOf, type Orm } from '../orm/open-orm.js';
import { inTransaction } from '../orm/transaction.js';
import { fillLoginSkeletons } from '../users/login-skeleton.js';
import { insertUser } from '../users/users.js';

export type SeedResult = { createdRoot: boolean; generatedPassword?: string };

/**
 * Brings the reference data up to date (new permission keys appear on upgrade) and, on an
 * empty database, creates the link types, roles and accounts. Safe to run at every start
 * and from several processes at once (PostgreSQL takes an advisory lock).
 */
export async function seed(
  orm: Orm,
  options: {
    adminPassword?: string | undefined;
    /** The root password as a ready hash (`hashPassword`); the test kit's way to skip a full-cost hash. */
    adminPasswordHash?: string | undefined;
  } = {},
): Promise<SeedResult> {
  return inTransaction(orm.em.fork() as Em, async (em) => {
    if (dialectOf(orm) === 'postgresql') {
      await em
        .getConnection()
        .execute('select pg_advisory_xact_lock(727002)', [], 'all', em.getTransactionContext());
    }
    const known = new Set((await em.find(Permission, {})).map((p) => p.key));
    for (const [key, { description }] of Object.entries(PERMISSIONS)) {
      if (!known.has(key)) em.create(Permission, { key, description });
    }
    // Seeded groups appear on upgrade too (a database made before groups existed gets them).
    await normalizeStoredGroupNames(em);
    const groups = new Set((await em.find(Group, {})).map((g) => g.nameKey));
    for (const group of SEED_GROUPS) {
      const nameKey = groupNameKey(group.name);
      if (!groups.has(nameKey)) em.create(Group, { ...group, nameKey });
    }
    await em.flush();
    if (!(await em.findOne(User, { loginKey: DELETED_USER.login }))) await insertUser(em, DELETED_USER);
    // An import of an older version could make it an ordinary account (a name of its importer's
    // choosing shown on every deleted user's content): it is the system account again.
    // Read first: a write statement, even one that changes nothing, takes SQLite's write lock at
    // every start, and another process may hold it.
    const strayed = await em.count(User, { loginKey: DELETED_USER.login, type: { $ne: DELETED_USER.type } });
    if (strayed > 0)
      await em.nativeUpdate(
        User,
        { loginKey: DELETED_USER.login, type: { $ne: DELETED_USER.type } },
        {
          type: DELETED_USER.type,
          fullName: DELETED_USER.fullName,
          email: null,
          emailKey: null,
          emailSetBy: null,
          passwordHash: null,
        },
      );
    // Users stored before login skeletons were recorded (migration 0059) get theirs.
    await fillLoginSkeletons(em);
    if (await em.findOne(User, { loginKey: 'root' })) return { createdRoot: false };

    for (const type of SEED_LINK_TYPES) {
      em.create(IssueLinkType, { ...type, nameKey: type.name.toLowerCase() });
    }
    const roles = SEED_ROLES.map((r) =>
      em.create(Role, {
        name: r.name,
        nameKey: r.name.toLowerCase(),
        description: r.description,
        permissions: r.permissions.map((key) => em.getReference(Permission, key)),
      }),
    );
    await em.flush();

    const generatedPassword =
      options.adminPassword || options.adminPasswordHash ? undefined : randomSecret(15);
    const root = await insertUser(em, {
      login: 'root',
      fullName: 'root',
      password: options.adminPassword ?? generatedPassword,
      passwordHash: options.adminPasswordHash,
      type: 'root',
    });
    for (const account of SYSTEM_ACCOUNTS) await insertUser(em, account);
    const admin = roles.find((r) => r.name === 'Admin') ?? roles[0];
    if (!admin) throw new Error('seed roles are empty');
    em.create(RoleGrant, { user: root, role: admin, project: null, scopeKey: 'global' });
    await em.flush();
    return generatedPassword ? { createdRoot: true, generatedPassword } : { createdRoot: true };
  });
}
