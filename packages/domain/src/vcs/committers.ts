import type { Em } from '../orm/em.js';
import { readRows } from '../read-models/statements.js';
import { EFFECTIVE_GRANTS_SQL } from '../roles/effective-grants.js';

export type Committer =
  | { kind: 'matched'; user: { id: number; login: string; type: string } }
  | { kind: 'unmatched'; reason: string };

/**
 * The one user a commit's author e-mail stands for: same e-mail (case-insensitive) and the
 * integration's committers role (own or through a group), globally or in the project. None or several: the
 * commit is still recorded, but nobody's commands run (the legacy YouTrack rule).
 */
export async function findCommitter(
  em: Em,
  role: { id: number; name: string } | null,
  email: string | null,
  projectId: number,
): Promise<Committer> {
  if (!email?.trim()) return { kind: 'unmatched', reason: 'the commit has no author e-mail' };
  if (!role) return { kind: 'unmatched', reason: 'the integration has no committers role' };
  const rows = await readRows<{ id: number; login: string; type: string }>(
    em,
    `select distinct u.id, u.login, u.type from users u join ${EFFECTIVE_GRANTS_SQL} g on g.user_id = u.id ` +
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
  return { kind: 'matched', user: { id: Number(first.id), login: first.login, type: first.type } };
}
