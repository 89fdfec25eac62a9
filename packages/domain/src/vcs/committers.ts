import type { UserType } from '@trackline/contracts';
import { covers } from '../auth/actor.js';
import { findUser } from '../auth/actor-read-model.js';
import { loadActor } from '../auth/load-actor.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareRead } from '../orm/typed-query.js';
import { effectiveGrants } from '../roles/effective-grants.js';

export type Committer =
  | { kind: 'matched'; user: { id: number; login: string; type: string } }
  | { kind: 'unmatched'; reason: string };

type Candidate = { id: number; login: string; type: UserType; email_set_by: number | null };

/** The users of an e-mail holding a role, globally or in a project. */
const candidatesQuery = prepareRead((param: Param<{ emailKey: string; roleId: number; projectId: number }>) =>
  tables
    .selectFrom('users as u')
    .innerJoin(effectiveGrants().as('g'), 'g.user_id', 'u.id')
    .select(['u.id', 'u.login', 'u.type', 'u.email_set_by'])
    .distinct()
    .where('u.email_key', '=', param('emailKey'))
    .where('g.role_id', '=', param('roleId'))
    .where((eb) => eb.or([eb('g.project_id', 'is', null), eb('g.project_id', '=', param('projectId'))]))
    .orderBy('u.login'),
);

/**
 * The one user a commit's author e-mail stands for: same e-mail (case-insensitive) and the
 * integration's committers role (own or through a group), globally or in the project. None or several: the
 * commit is still recorded, but nobody's commands run (the legacy YouTrack rule). The e-mail
 * must be one the account can be trusted with (`trustedEmail`).
 */
export async function findCommitter(
  em: Em,
  role: { id: number; name: string } | null,
  email: string | null,
  projectId: number,
): Promise<Committer> {
  if (!email?.trim()) return { kind: 'unmatched', reason: 'the commit has no author e-mail' };
  if (!role) return { kind: 'unmatched', reason: 'the integration has no committers role' };
  const rows: Candidate[] = await candidatesQuery.all(em, {
    emailKey: email.trim().toLowerCase(),
    roleId: role.id,
    projectId,
  });
  const [first, ...others] = rows;
  if (!first) {
    return { kind: 'unmatched', reason: `no user with e-mail ${email} holds role [ ${role.name} ] here` };
  }
  if (others.length > 0) {
    const logins = rows.map((r) => r.login).join(', ');
    return { kind: 'unmatched', reason: `e-mail ${email} matches several committers (${logins})` };
  }
  const distrust = await untrustedEmail(em, first);
  if (distrust) return { kind: 'unmatched', reason: distrust };
  return { kind: 'matched', user: { id: Number(first.id), login: first.login, type: first.type } };
}

/**
 * Why the account's e-mail cannot be trusted to stand for it, or null. An e-mail the owner set
 * (or one from before setters were recorded) is theirs. One set by another account is trusted
 * only while that account still exists and holds everything this one holds now: otherwise who
 * set it (or whoever controls that address) would act, through commits, with rights the setter
 * never had; for instance when the account was granted more after its e-mail was set.
 */
async function untrustedEmail(em: Em, user: Candidate): Promise<string | null> {
  const setterId = user.email_set_by === null ? null : Number(user.email_set_by);
  if (setterId === null || setterId === Number(user.id)) return null;
  const setter = await findUser(em, setterId);
  const again = `[ ${user.login} ] or an administrator holding everything it holds must set it again`;
  if (!setter) return `the e-mail of [ ${user.login} ] was set by an account that no longer exists; ${again}`;
  const asActor = (u: { id: number; login: string; type: UserType }) =>
    loadActor(em, { id: Number(u.id), login: u.login, type: u.type });
  if (covers(await asActor(setter), await asActor(user))) return null;
  return `the e-mail of [ ${user.login} ] was set by [ ${setter.login} ], who does not hold everything [ ${user.login} ] holds; ${again}`;
}
