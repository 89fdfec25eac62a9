import type { UserType } from '@trackline/contracts';
import { covers } from '../auth/actor.js';
import { findUser } from '../auth/actor-read-model.js';
import { loadActor } from '../auth/load-actor.js';
import type { Em } from '../orm/em.js';
import { readRows } from '../orm/statements.js';
import { EFFECTIVE_GRANTS_SQL } from '../roles/effective-grants.js';

export type Committer =
  | { kind: 'matched'; user: { id: number; login: string; type: string } }
  | { kind: 'unmatched'; reason: string };

type Candidate = { id: number; login: string; type: UserType; email_set_by: number | null };

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
  const rows = await readRows<Candidate>(
    em,
    `select distinct u.id, u.login, u.type, u.email_set_by from users u join ${EFFECTIVE_GRANTS_SQL} g on g.user_id = u.id ` +
      'where u.email_key = ? and g.role_id = ? and (g.project_id is null or g.project_id = ?) order by u.login',
    [email.trim().toLowerCase(), role.id, projectId],
  );
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
