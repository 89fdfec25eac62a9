import { type ImportItemResult, refused } from '../issues/import-report.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { readQuery } from '../orm/typed-query.js';
import { looksLike } from '../users/login-skeleton.js';
import { lookAlikeLogins } from '../users/user-refs.js';
import type { Plan } from './plan-issue.js';

/**
 * What an issue import's plans are checked for against the database before anything is stored:
 * logins that look like other accounts' (refused per issue) and whether the assignee group would
 * gain members (which needs UPDATE_USERGROUP, `requireImportMayJoin`).
 */
/** Every login a plan names (each becomes a placeholder user when unknown). */
const planLogins = (p: Plan): string[] => [
  p.reporter,
  ...(p.updater ? [p.updater] : []),
  ...p.voters,
  ...p.watchers,
  ...p.assignments.flatMap((a) => a.logins),
  ...p.comments.map((c) => c.author),
];

/**
 * An issue naming a new login that looks like another account's (`ɾoot` beside `root`) is refused
 * for that issue (`lookAlikeLogins`): its placeholder, later imported as a user, would pass for the
 * other account. Takes such plans out of `plans`.
 */
export async function refuseLookAlikes(em: Em, plans: Plan[], results: ImportItemResult[]): Promise<void> {
  const lookAlikes = await lookAlikeLogins(em, plans.flatMap(planLogins));
  if (lookAlikes.size === 0) return;
  for (let i = plans.length - 1; i >= 0; i--) {
    const plan = plans[i] as Plan;
    const login = planLogins(plan).find((l) => lookAlikes.has(l.toLowerCase()));
    if (login === undefined) continue;
    results[plan.index] = refused(String(plan.number), [
      {
        message: `login [ ${login} ] ${looksLike(lookAlikes.get(login.toLowerCase()) as string)}`,
        fieldName: 'login',
        value: login,
      },
    ]);
    plans.splice(i, 1);
  }
}

/**
 * Whether adding the plans' assignees (every user-field value) to the group adds someone: a
 * login not yet a member, or not yet an account (its placeholder would join, and a user import
 * later makes it the account it stands for).
 */
export async function gainsMembers(em: Em, groupId: number, plans: readonly Plan[]): Promise<boolean> {
  const logins = [
    ...new Set(plans.flatMap((p) => p.assignments.flatMap((a) => a.logins.map((l) => l.toLowerCase())))),
  ];
  if (logins.length === 0) return false;
  const members = await readQuery(
    em,
    tables
      .selectFrom('users as u')
      .innerJoin('group_members as m', 'm.user_id', 'u.id')
      .select('u.login_key')
      .where('m.group_id', '=', groupId)
      .where('u.login_key', 'in', logins),
  );
  return members.length < logins.length;
}
