import type { NotificationEventKind } from '@trackline/contracts';
import { tables } from '../../model/database.js';
import type { Em } from '../../orm/em.js';
import { type Param, prepareWrite } from '../../orm/typed-query.js';
import { type FieldChange, sameValues } from './history.js';

/**
 * One part of a change of an issue, as the notification outbox stores it (ids, not names: what a
 * recipient sees is decided, and named, when their message is built). `issue.changed` holds the
 * field changes exactly as the history records them (summary, description, custom fields).
 */
export type IssueEventPart =
  | { kind: 'issue.created' }
  | { kind: 'issue.changed'; fields: FieldChange[] }
  | { kind: 'issue.visibility'; fromGroupId: number | null; toGroupId: number | null }
  | { kind: 'comment.added' | 'comment.updated'; commentId: number; text: string }
  | { kind: 'attachment.added'; attachmentId: number }
  | { kind: 'link.added' | 'link.removed'; typeId: number; sourceId: number; targetId: number }
  | { kind: 'tag.added' | 'tag.removed'; tagId: number };

export type IssueEvent = {
  issueId: number;
  projectId: number;
  authorId: number;
  parts: IssueEventPart[];
  /** `disableNotifications`: no person is told; webhooks still are. */
  quiet?: boolean | undefined;
  at?: Date | undefined;
};

const eventInsert = prepareWrite(
  (
    param: Param<{
      issueId: number;
      projectId: number;
      authorId: number;
      kinds: string;
      payload: string;
      quiet: boolean;
      at: number;
    }>,
  ) =>
    tables.insertInto('notification_events').values({
      issue_id: param('issueId'),
      project_id: param('projectId'),
      author_id: param('authorId'),
      kinds: param('kinds'),
      payload: param('payload'),
      quiet: param('quiet'),
      created_at: param('at'),
    }),
);

/**
 * Writes a change's notification event into the outbox, in the caller's transaction (the change
 * and its event commit together or not at all). The one writer of the outbox: creation, text
 * updates, commands (fields, comments, links, tags, visibility), comment edits and attachments
 * call it. A change without parts writes nothing. The worker (`notifications/`) does the rest.
 */
export async function recordIssueEvent(em: Em, event: IssueEvent): Promise<void> {
  // Field "changes" that left a field as it was tell nothing, as in the history.
  const parts = event.parts
    .map((p) =>
      p.kind === 'issue.changed'
        ? { ...p, fields: p.fields.filter((f) => !sameValues(f.oldValues, f.newValues)) }
        : p,
    )
    .filter((p) => p.kind !== 'issue.changed' || p.fields.length > 0);
  if (parts.length === 0) return;
  const kinds = [...new Set(parts.map((p) => p.kind))] as NotificationEventKind[];
  await eventInsert.run(em, {
    issueId: event.issueId,
    projectId: event.projectId,
    authorId: event.authorId,
    kinds: kinds.join(','),
    payload: JSON.stringify(parts),
    quiet: event.quiet === true,
    at: (event.at ?? new Date()).getTime(),
  });
}
