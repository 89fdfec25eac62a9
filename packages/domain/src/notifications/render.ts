import { type Actor, can } from '../auth/actor.js';
import { canReadIssue, type IssueAccessFacts } from '../auth/issue-access.js';
import { visibleAttachmentsSql } from '../issues/attachments/attachment-visibility.js';
import { canSeeComment } from '../issues/comments/comments.js';
import { userFactsQuery } from '../issues/fields/value-lookups.js';
import type { FieldChange } from '../issues/history/history.js';
import { privateFieldNames } from '../issues/history/history.js';
import type { IssueEventPart } from '../issues/history/issue-events.js';
import { formatIssueId } from '../issues/issue-id.js';
import { groupNames } from '../issues/issue-visibility.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { type Param, perLength, prepareRead, readQuery, sqlCondition } from '../orm/typed-query.js';

/**
 * What one reader is told of changes of one issue: built when the message is (at send time, for
 * e-mail and webhooks; at assembly and again at each read, for the inbox), through the one set
 * of rules of who sees what: the issue (`canReadIssue`), private fields (PRIVATE_READ_ISSUE, by
 * the history's rule), comments (READ_COMMENT and `canSeeComment`), attachments
 * (`visibleAttachmentsSql`), links (the other end readable) and tags (the reader's own, and shared
 * ones: as every tag list shows them, `folders/owned-names.ts`).
 */
export type RenderedPart =
  | { kind: 'issue.created'; summary: string; description: string }
  | { kind: 'issue.changed'; fields: FieldChange[] }
  | { kind: 'issue.visibility'; from: string | null; to: string | null }
  | { kind: 'comment.added' | 'comment.updated'; commentId: number; text: string; group: string | null }
  | { kind: 'attachment.added'; attachmentId: number; name: string }
  | { kind: 'link.added' | 'link.removed'; phrase: string; issue: string; summary: string }
  | { kind: 'tag.added' | 'tag.removed'; tag: string };

export type RenderedChange = {
  eventId: number;
  at: number;
  author: { login: string; fullName: string };
  parts: RenderedPart[];
};

export type RenderedIssue = {
  issue: { id: string; dbId: number; summary: string };
  /** `lost`: the reader could read the issue before one of these changes and no longer can. */
  access: 'readable' | 'lost';
  changes: RenderedChange[];
};

type EventRow = {
  id: number;
  issueId: number;
  projectId: number;
  authorId: number;
  createdAt: number;
  parts: IssueEventPart[];
};
type IssueRow = IssueAccessFacts & { id: number; readableId: string; summary: string; description: string };

const eventsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('notification_events')
      .select(['id', 'issue_id', 'project_id', 'author_id', 'created_at', 'payload'])
      .where('id', 'in', param.list('ids', count))
      .orderBy('id'),
  ),
);
const issuesQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('issues as i')
      .innerJoin('projects as p', 'p.id', 'i.project_id')
      .select([
        'i.id',
        'i.project_id',
        'i.reporter_id',
        'i.permitted_group_id',
        'i.summary',
        'i.description',
        'i.number_in_project',
        'p.short_name',
      ])
      .where('i.id', 'in', param.list('ids', count)),
  ),
);
const commentsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('issue_comments')
      .select(['id', 'author_id', 'permitted_group_id', 'deleted'])
      .where('id', 'in', param.list('ids', count)),
  ),
);
const tagsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('tags')
      .select(['id', 'name', 'owner_id', 'shared'])
      .where('id', 'in', param.list('ids', count)),
  ),
);
const linkTypesQuery = prepareRead(() =>
  tables.selectFrom('issue_link_types').select(['id', 'name', 'outward_name', 'inward_name', 'directed']),
);

type Memo<K, V> = Map<K, V>;

/**
 * Loads what messages about some events need once, however many readers they go to (a change
 * of an issue with a thousand watchers renders a thousand messages from one load), and renders
 * them for each reader. One context per worker step: what it remembers is that step's snapshot.
 */
export class RenderContext {
  private readonly events: Memo<number, EventRow | null> = new Map();
  private readonly issues: Memo<number, IssueRow | null> = new Map();
  private readonly users: Memo<number, { login: string; fullName: string }> = new Map();
  private readonly comments: Memo<
    number,
    { authorId: number; groupId: number | null; deleted: boolean } | null
  > = new Map();
  private readonly tags: Memo<number, { name: string; ownerId: number; shared: boolean } | null> = new Map();
  private readonly groups: Memo<number, string> = new Map();
  private readonly privateFields: Memo<number, Set<string>> = new Map();
  private linkTypes: Map<number, { outward: string; inward: string; directed: boolean }> | null = null;

  constructor(private readonly em: Em) {}

  /** The loads in progress: one at a time, so a caller never sees another's half-filled memo. */
  private loading: Promise<void> = Promise.resolve();

  /** Loads the events, and everything they name, that are not loaded yet (after any load in progress). */
  load(eventIds: readonly number[]): Promise<void> {
    const run = this.loading.then(() => this.loadNow(eventIds));
    this.loading = run.catch(() => {});
    return run;
  }

  private async loadNow(eventIds: readonly number[]): Promise<void> {
    const missing = [...new Set(eventIds)].filter((id) => !this.events.has(id));
    for (const chunk of chunks(missing)) {
      const rows = await eventsQuery(chunk.length).all(this.em, { ids: chunk });
      for (const id of chunk) this.events.set(id, null);
      for (const r of rows)
        this.events.set(Number(r.id), {
          id: Number(r.id),
          issueId: Number(r.issue_id),
          projectId: Number(r.project_id),
          authorId: Number(r.author_id),
          createdAt: Number(r.created_at),
          parts: JSON.parse(r.payload) as IssueEventPart[],
        });
    }
    const events = missing.flatMap((id) => this.events.get(id) ?? []);
    const issueIds = new Set<number>();
    const userIds = new Set<number>();
    const commentIds = new Set<number>();
    const tagIds = new Set<number>();
    const groupIds = new Set<number>();
    for (const e of events) {
      issueIds.add(e.issueId);
      userIds.add(e.authorId);
      for (const part of e.parts) {
        if (part.kind === 'comment.added' || part.kind === 'comment.updated') commentIds.add(part.commentId);
        if (part.kind === 'tag.added' || part.kind === 'tag.removed') tagIds.add(part.tagId);
        if (part.kind === 'link.added' || part.kind === 'link.removed') {
          issueIds.add(part.sourceId);
          issueIds.add(part.targetId);
        }
        if (part.kind === 'issue.visibility')
          for (const g of [part.fromGroupId, part.toGroupId]) if (g !== null) groupIds.add(g);
      }
    }
    await this.loadIssues([...issueIds]);
    await this.loadUsers([...userIds]);
    await this.loadRows(commentIds, this.comments, commentsQuery, (r) => ({
      authorId: Number(r.author_id),
      groupId: r.permitted_group_id === null ? null : Number(r.permitted_group_id),
      deleted: toBool(r.deleted),
    }));
    await this.loadRows(tagIds, this.tags, tagsQuery, (r) => ({
      name: r.name,
      ownerId: Number(r.owner_id),
      shared: toBool(r.shared),
    }));
    const newGroups = [...groupIds].filter((id) => !this.groups.has(id));
    if (newGroups.length)
      for (const [id, name] of await groupNames(this.em, newGroups)) this.groups.set(id, name);
    for (const e of events)
      if (!this.privateFields.has(e.projectId))
        this.privateFields.set(e.projectId, await privateFieldNames(this.em, e.projectId));
    if (!this.linkTypes && events.some((e) => e.parts.some((p) => p.kind.startsWith('link.')))) {
      const rows = await linkTypesQuery.all(this.em, {});
      this.linkTypes = new Map(
        rows.map((r) => [
          Number(r.id),
          { outward: r.outward_name, inward: r.inward_name, directed: toBool(r.directed) },
        ]),
      );
    }
  }

  event(id: number): EventRow | null {
    return this.events.get(id) ?? null;
  }

  issue(id: number): IssueRow | null {
    return this.issues.get(id) ?? null;
  }

  user(id: number): { login: string; fullName: string } {
    return this.users.get(id) ?? { login: 'deleted_user', fullName: 'Deleted user' };
  }

  private async loadIssues(ids: number[]) {
    const missing = ids.filter((id) => !this.issues.has(id));
    for (const chunk of chunks(missing)) {
      for (const id of chunk) this.issues.set(id, null);
      for (const r of await issuesQuery(chunk.length).all(this.em, { ids: chunk }))
        this.issues.set(Number(r.id), {
          id: Number(r.id),
          projectId: Number(r.project_id),
          reporterId: Number(r.reporter_id),
          permittedGroupId: r.permitted_group_id === null ? null : Number(r.permitted_group_id),
          readableId: formatIssueId(r.short_name, Number(r.number_in_project)),
          summary: r.summary,
          description: r.description,
        });
    }
  }

  private async loadUsers(ids: number[]) {
    const missing = ids.filter((id) => !this.users.has(id));
    for (const chunk of chunks(missing))
      for (const r of await userFactsQuery(chunk.length).all(this.em, { ids: chunk }))
        this.users.set(Number(r.id), { login: r.login, fullName: r.full_name });
  }

  private async loadRows<R extends { id: unknown }, V>(
    ids: Set<number>,
    memo: Map<number, V | null>,
    query: (n: number) => { all(em: Em, args: { ids: number[] }): Promise<R[]> },
    toValue: (row: R) => V,
  ) {
    const missing = [...ids].filter((id) => !memo.has(id));
    for (const chunk of chunks(missing)) {
      for (const id of chunk) memo.set(id, null);
      for (const r of await query(chunk.length).all(this.em, { ids: chunk }))
        memo.set(Number(r.id), toValue(r));
    }
  }

  /**
   * What `reader` is told of these events (all of one issue; load them first): null when nothing
   * (the issue is gone or unreadable, or every part is hidden).
   */
  async render(reader: Actor, eventIds: readonly number[]): Promise<RenderedIssue | null> {
    const events = eventIds.flatMap((id) => this.events.get(id) ?? []);
    const first = events[0];
    if (!first) return null;
    const issue = this.issues.get(first.issueId);
    if (!issue) return null;
    const summary = { id: issue.readableId, dbId: issue.id, summary: issue.summary };
    if (!canReadIssue(reader, issue)) {
      const lost = events.some((e) =>
        e.parts.some(
          (p) =>
            p.kind === 'issue.visibility' &&
            canReadIssue(reader, { ...issue, permittedGroupId: p.fromGroupId }),
        ),
      );
      // Only the id the reader already knew, and that it is hidden now: nothing of its content.
      return lost ? { issue: { ...summary, summary: '' }, access: 'lost', changes: [] } : null;
    }
    const attachments = await this.visibleAttachments(reader, events);
    const changes: RenderedChange[] = [];
    for (const e of events) {
      const parts = e.parts.flatMap((p) => this.renderPart(reader, issue, p, attachments));
      if (parts.length)
        changes.push({ eventId: e.id, at: e.createdAt, author: this.user(e.authorId), parts });
    }
    return changes.length ? { issue: summary, access: 'readable', changes } : null;
  }

  /** The attachments of these events the reader sees, by id, with their names. */
  private async visibleAttachments(reader: Actor, events: EventRow[]): Promise<Map<number, string>> {
    const ids = events.flatMap((e) =>
      e.parts.flatMap((p) => (p.kind === 'attachment.added' ? [p.attachmentId] : [])),
    );
    if (ids.length === 0) return new Map();
    const visible = visibleAttachmentsSql(reader);
    const rows = await readQuery(
      this.em,
      tables
        .selectFrom('issue_attachments as a')
        .select(['a.id', 'a.name'])
        .where('a.id', 'in', ids)
        .where(sqlCondition(visible)),
    );
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  private renderPart(
    reader: Actor,
    issue: IssueRow,
    part: IssueEventPart,
    attachments: Map<number, string>,
  ): RenderedPart[] {
    switch (part.kind) {
      case 'issue.created':
        return [{ kind: part.kind, summary: issue.summary, description: issue.description }];
      case 'issue.changed': {
        const hidden = can(reader, 'PRIVATE_READ_ISSUE', issue.projectId)
          ? new Set<string>()
          : (this.privateFields.get(issue.projectId) ?? new Set<string>());
        const fields = part.fields.filter((f) => !hidden.has(f.name.toLowerCase()));
        return fields.length ? [{ kind: part.kind, fields }] : [];
      }
      case 'issue.visibility': {
        const name = (id: number | null) => (id === null ? null : (this.groups.get(id) ?? String(id)));
        return [{ kind: part.kind, from: name(part.fromGroupId), to: name(part.toGroupId) }];
      }
      case 'comment.added':
      case 'comment.updated': {
        const comment = this.comments.get(part.commentId);
        if (!comment || comment.deleted || !can(reader, 'READ_COMMENT', issue.projectId)) return [];
        if (!canSeeComment(reader, comment)) return [];
        const group = comment.groupId === null ? null : (this.groups.get(comment.groupId) ?? null);
        return [{ kind: part.kind, commentId: part.commentId, text: part.text, group }];
      }
      case 'attachment.added': {
        const name = attachments.get(part.attachmentId);
        return name === undefined ? [] : [{ kind: part.kind, attachmentId: part.attachmentId, name }];
      }
      case 'link.added':
      case 'link.removed': {
        const outward = part.sourceId === issue.id;
        const other = this.issues.get(outward ? part.targetId : part.sourceId);
        const type = this.linkTypes?.get(part.typeId);
        if (!other || !type || !canReadIssue(reader, other)) return [];
        const phrase = outward || !type.directed ? type.outward : type.inward;
        return [{ kind: part.kind, phrase, issue: other.readableId, summary: other.summary }];
      }
      case 'tag.added':
      case 'tag.removed': {
        const tag = this.tags.get(part.tagId);
        if (!tag) return [];
        const sees = tag.ownerId === reader.userId || tag.shared;
        return sees ? [{ kind: part.kind, tag: tag.name }] : [];
      }
    }
  }
}

function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
