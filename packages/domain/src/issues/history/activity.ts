import { type Actor, can } from '../../auth/actor.js';
import { canReadIssue } from '../../auth/issue-access.js';
import type { Em } from '../../orm/em.js';
import { toBool, toMs } from '../../orm/row-values.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { listAttachments } from '../attachments/attachments.js';
import { listComments } from '../comments/comments.js';
import { findReadableIssue } from '../find-issues.js';
import { formatIssueId } from '../issue-id.js';
import { type FieldChange, listIssueChanges } from './history.js';

type Person = { login: string; fullName: string };

/** One entry of an issue's activity, by whom (full name) and when (ms since the epoch). */
export type ActivityEntry = { at: number; by: Person } & (
  | { kind: 'change'; fields: FieldChange[] }
  | { kind: 'comment'; text: string }
  | { kind: 'attachment'; name: string }
  | { kind: 'link-added' | 'link-removed'; phrase: string; issue: { id: string; summary: string } }
  | { kind: 'tag-added' | 'tag-removed'; tag: string }
);

/** Entries at the same moment keep this order: a command's fields, then its links and tags, then its comment. */
const ORDER: Record<ActivityEntry['kind'], number> = {
  change: 0,
  'link-added': 1,
  'link-removed': 1,
  'tag-added': 2,
  'tag-removed': 2,
  attachment: 3,
  comment: 4,
};

type EventRow = {
  at: unknown;
  kind: string;
  phrase: string | null;
  login: string;
  full_name: string;
  tag_name: string | null;
  tag_owner: number | null;
  tag_shared: unknown;
  other_id: number | null;
  other_project: number | null;
  other_number: number | null;
  other_short_name: string | null;
  other_summary: string | null;
  other_reporter: number | null;
  other_group: number | null;
};

/**
 * The console's history of a readable issue, oldest first: recorded field changes (user values
 * by full name), comments, attachments, and links and tags added or removed by commands, each with
 * the full name of who did it. Only what the caller may see: comments and attachments as their
 * own lists show them, links to issues it reads, tags it sees (its own, or shared ones).
 */
export async function listIssueActivity(em: Em, actor: Actor, readableId: string): Promise<ActivityEntry[]> {
  const issue = await findReadableIssue(em, actor, readableId);
  const entries: ActivityEntry[] = [];
  const userFields = new Set(
    (
      await em.execute<{ name_key: string }[]>(
        "select name_key from project_fields where project_id = ? and kind = 'user'",
        [issue.projectId],
      )
    ).map((r) => r.name_key),
  );
  const changes = await listIssueChanges(em, actor, issue.readableId);
  const logins = new Set(
    changes.flatMap((c) =>
      c.fields
        .filter((f) => userFields.has(f.name.toLowerCase()))
        .flatMap((f) => [...f.oldValues, ...f.newValues]),
    ),
  );
  const attachments = await listAttachments(em, actor, issue.readableId);
  for (const a of attachments) logins.add(a.authorLogin);
  const names = await fullNames(em, [...logins]);
  const person = (login: string): Person => ({ login, fullName: names.get(login.toLowerCase()) ?? login });
  for (const c of changes) {
    const fields = c.fields.map((f) =>
      userFields.has(f.name.toLowerCase())
        ? {
            ...f,
            oldValues: f.oldValues.map((v) => person(v).fullName),
            newValues: f.newValues.map((v) => person(v).fullName),
          }
        : f,
    );
    entries.push({ kind: 'change', at: c.updated, by: c.updater, fields });
  }
  if (can(actor, 'READ_COMMENT', issue.projectId)) {
    for (const c of await listComments(em, actor, issue.readableId))
      if (!c.deleted) entries.push({ kind: 'comment', at: c.created, by: c.author, text: c.text });
  }
  for (const a of attachments)
    entries.push({ kind: 'attachment', at: a.created, by: person(a.authorLogin), name: a.name });
  for (const e of await eventRows(em, issue.id)) {
    const by = { login: e.login, fullName: e.full_name };
    const at = toMs(e.at);
    if (e.kind === 'tag-added' || e.kind === 'tag-removed') {
      const seen = e.tag_name !== null && (Number(e.tag_owner) === actor.userId || toBool(e.tag_shared));
      if (seen) entries.push({ kind: e.kind, at, by, tag: e.tag_name as string });
    } else if ((e.kind === 'link-added' || e.kind === 'link-removed') && e.other_id !== null) {
      const other = {
        projectId: Number(e.other_project),
        reporterId: Number(e.other_reporter),
        permittedGroupId: e.other_group === null ? null : Number(e.other_group),
      };
      if (!canReadIssue(actor, other)) continue;
      entries.push({
        kind: e.kind,
        at,
        by,
        phrase: e.phrase ?? '',
        issue: {
          id: formatIssueId(e.other_short_name as string, Number(e.other_number)),
          summary: e.other_summary ?? '',
        },
      });
    }
  }
  return entries.sort((a, b) => a.at - b.at || ORDER[a.kind] - ORDER[b.kind]);
}

function eventRows(em: Em, issueId: number): Promise<EventRow[]> {
  return em.execute<EventRow[]>(
    'select e.at, e.kind, e.phrase, u.login, u.full_name, t.name as tag_name, t.owner_id as tag_owner, ' +
      't.shared as tag_shared, o.id as other_id, o.project_id as other_project, o.number_in_project as other_number, ' +
      'p.short_name as other_short_name, o.summary as other_summary, o.reporter_id as other_reporter, ' +
      'o.permitted_group_id as other_group ' +
      'from issue_events e join users u on u.id = e.actor_id left join tags t on t.id = e.tag_id ' +
      'left join issues o on o.id = e.other_issue_id left join projects p on p.id = o.project_id ' +
      'where e.issue_id = ? order by e.id',
    [issueId],
  );
}

/** Full names by lower-cased login. */
async function fullNames(em: Em, logins: string[]): Promise<Map<string, string>> {
  const keys = [...new Set(logins.map((l) => l.toLowerCase()))];
  if (keys.length === 0) return new Map();
  const rows = await em.execute<{ login_key: string; full_name: string }[]>(
    `select login_key, full_name from users where login_key in (${placeholders(keys)})`,
    keys,
  );
  return new Map(rows.map((r) => [r.login_key, r.full_name]));
}
