import { loadActor } from '../auth/load-actor.js';
import type { FieldChange } from '../issues/history/history.js';
import type { IssueEventPart } from '../issues/history/issue-events.js';
import { formatIssueId } from '../issues/issue-id.js';
import { countIssues } from '../issues/search/search-issues.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, perLength, prepareRead } from '../orm/typed-query.js';

/** Why someone is told (docs/notifications.md, "Who is told"). */
export type Reason = 'reporter' | 'assignee' | 'watcher' | 'group' | 'subscriber' | 'mention' | 'tag owner';

export type EventFacts = {
  issueId: number;
  projectId: number;
  authorId: number;
  parts: IssueEventPart[];
};

const issueQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('issues as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .select([
      'i.reporter_id',
      'i.description',
      'i.number_in_project',
      'p.short_name',
      'p.notification_group_id',
    ])
    .where('i.id', '=', param('id')),
);
/** Users in the issue's assignee fields (user fields whose prototype is marked `isAssignee`). */
const assigneesQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('issue_field_values as v')
    .innerJoin('project_fields as pf', 'pf.id', 'v.field_id')
    .innerJoin('custom_fields as cf', 'cf.id', 'pf.custom_field_id')
    .select('v.user_id')
    .where('v.issue_id', '=', param('id'))
    .where('v.user_id', 'is not', null)
    .where('cf.is_assignee', '=', true),
);
const assigneeFieldsQuery = prepareRead((param: Param<{ projectId: number }>) =>
  tables
    .selectFrom('project_fields as pf')
    .innerJoin('custom_fields as cf', 'cf.id', 'pf.custom_field_id')
    .select('pf.name_key')
    .where('pf.project_id', '=', param('projectId'))
    .where('cf.is_assignee', '=', true),
);
const watchersQuery = prepareRead((param: Param<{ id: number }>) =>
  tables.selectFrom('issue_stars').select('user_id').where('issue_id', '=', param('id')),
);
const groupMembersQuery = prepareRead((param: Param<{ groupId: number }>) =>
  tables.selectFrom('group_members').select('user_id').where('group_id', '=', param('groupId')),
);
/** Subscribers of the issue's tags (and of tags the change removed) who see the tag: owner or shared. */
const tagSubscribersQuery = perLength((count) =>
  prepareRead((param: Param<{ id: number; removed: number[] }>) =>
    tables
      .selectFrom('notification_subscriptions as s')
      .innerJoin('tags as t', 't.id', 's.tag_id')
      .select('s.user_id')
      .where((eb) =>
        eb.or([
          eb(
            's.tag_id',
            'in',
            eb.selectFrom('issue_tags as it').select('it.tag_id').where('it.issue_id', '=', param('id')),
          ),
          ...(count > 0 ? [eb('s.tag_id', 'in', param.list('removed', count))] : []),
        ]),
      )
      .where((eb) => eb.or([eb('t.owner_id', '=', eb.ref('s.user_id')), eb('t.shared', '=', true)])),
  ),
);
const searchSubscriptionsQuery = prepareRead(() =>
  tables
    .selectFrom('notification_subscriptions as s')
    .innerJoin('saved_searches as q', 'q.id', 's.saved_search_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'q.query', 'u.login', 'u.type'])
    .where((eb) => eb.or([eb('q.owner_id', '=', eb.ref('s.user_id')), eb('q.shared', '=', true)])),
);
const tagOwnersQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables.selectFrom('tags').select('owner_id').where('id', 'in', param.list('ids', count)),
  ),
);
const loginsQuery = perLength((count) =>
  prepareRead((param: Param<{ keys: string[] }>) =>
    tables.selectFrom('users').select('id').where('login_key', 'in', param.list('keys', count)),
  ),
);

/** `@login` in a text: the logins it names (lower-cased), in order, once each. */
export function mentionedLogins(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:^|[^\w@.+-])@([A-Za-z0-9_][\w.-]{0,99})/g)) {
    found.add((m[1] as string).replace(/[.-]+$/, '').toLowerCase());
  }
  return [...found];
}

const descriptionChange = (parts: IssueEventPart[]): FieldChange | undefined =>
  parts.flatMap((p) => (p.kind === 'issue.changed' ? p.fields : [])).find((f) => f.name === 'description');

/**
 * Everyone who may be told of an event, with why (the author included: the caller drops them
 * unless they asked to be told of their own changes). Whether each may read what they are told
 * is decided later, when their message is built.
 */
export async function candidateRecipients(em: Em, event: EventFacts): Promise<Map<number, Set<Reason>>> {
  const out = new Map<number, Set<Reason>>();
  const add = (userId: unknown, reason: Reason) => {
    const id = Number(userId);
    if (!Number.isInteger(id)) return;
    const reasons = out.get(id) ?? new Set<Reason>();
    reasons.add(reason);
    out.set(id, reasons);
  };
  const issue = await issueQuery.first(em, { id: event.issueId });
  if (!issue) return out;
  add(issue.reporter_id, 'reporter');
  for (const r of await assigneesQuery.all(em, { id: event.issueId })) add(r.user_id, 'assignee');
  // Who an assignee field named before the change is told too (an issue taken from them).
  const fieldKeys = new Set(
    (await assigneeFieldsQuery.all(em, { projectId: event.projectId })).map((r) => r.name_key),
  );
  const formerLogins = event.parts.flatMap((p) =>
    p.kind === 'issue.changed'
      ? p.fields.filter((f) => fieldKeys.has(f.name.toLowerCase())).flatMap((f) => f.oldValues)
      : [],
  );
  for (const id of await userIdsOf(em, formerLogins)) add(id, 'assignee');
  for (const r of await watchersQuery.all(em, { id: event.issueId })) add(r.user_id, 'watcher');
  if (issue.notification_group_id !== null)
    for (const r of await groupMembersQuery.all(em, { groupId: Number(issue.notification_group_id) }))
      add(r.user_id, 'group');
  const changedTags = event.parts.flatMap((p) =>
    p.kind === 'tag.added' || p.kind === 'tag.removed' ? [p.tagId] : [],
  );
  const removedTags = event.parts.flatMap((p) => (p.kind === 'tag.removed' ? [p.tagId] : []));
  for (const r of await tagSubscribersQuery(removedTags.length).all(em, {
    id: event.issueId,
    removed: removedTags,
  }))
    add(r.user_id, 'subscriber');
  if (changedTags.length)
    for (const r of await tagOwnersQuery(changedTags.length).all(em, { ids: changedTags }))
      add(r.owner_id, 'tag owner');
  const readableId = formatIssueId(issue.short_name, Number(issue.number_in_project));
  for (const s of await searchSubscriptionsQuery.all(em, {})) {
    if (out.get(Number(s.user_id))?.has('subscriber')) continue;
    if (
      await matchesSavedSearch(
        em,
        { id: Number(s.user_id), login: s.login, type: s.type },
        s.query,
        readableId,
      )
    )
      add(s.user_id, 'subscriber');
  }
  // `@login` in a new comment, in a new issue's description, or added to a description.
  const mentioned: string[] = [];
  for (const p of event.parts) {
    if (p.kind === 'comment.added') mentioned.push(...mentionedLogins(p.text));
    if (p.kind === 'issue.created') mentioned.push(...mentionedLogins(issue.description));
  }
  const description = descriptionChange(event.parts);
  if (description) {
    const before = new Set(mentionedLogins(description.oldValues.join('\n')));
    mentioned.push(...mentionedLogins(description.newValues.join('\n')).filter((l) => !before.has(l)));
  }
  for (const id of await userIdsOf(em, mentioned)) add(id, 'mention');
  return out;
}

async function userIdsOf(em: Em, logins: string[]): Promise<number[]> {
  const keys = [...new Set(logins.map((l) => l.toLowerCase()))].slice(0, 200);
  if (keys.length === 0) return [];
  return (await loginsQuery(keys.length).all(em, { keys })).map((r) => Number(r.id));
}

/**
 * Whether the issue is among the subscriber's results of a saved search (searched as the
 * subscriber: only what they may read). A query that no longer parses matches nothing.
 */
async function matchesSavedSearch(
  em: Em,
  user: { id: number; login: string; type: string },
  query: string,
  readableId: string,
): Promise<boolean> {
  const actor = await loadActor(em, user as Parameters<typeof loadActor>[1]);
  const text = query.trim() ? `issue id: ${readableId} and (${query})` : `issue id: ${readableId}`;
  try {
    return (await countIssues(em, actor, text)) > 0;
  } catch {
    return false;
  }
}
