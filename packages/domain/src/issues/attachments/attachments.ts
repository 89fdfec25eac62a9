import type { Readable } from 'node:stream';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { resolveUserRefs } from '../../import/user-refs.js';
import type { Em } from '../../orm/em.js';
import { toMs } from '../../orm/row-values.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { oneLine } from '../../text/user-text.js';
import { findReadableIssue, type IssueRef } from '../find-issues.js';
import { IssueAttachment } from './attachment.entity.js';
import type { AttachmentStore } from './attachment-store.js';

export type AttachmentView = {
  id: number;
  issueId: string;
  name: string;
  size: number;
  contentType: string;
  authorLogin: string;
  group: string | null;
  created: number;
};

export type NewAttachment = {
  issue: string;
  /** The file name as uploaded; path separators and control characters are replaced. */
  name: string;
  contentType?: string | undefined;
  source: AsyncIterable<Uint8Array>;
  maxBytes: number;
};

/** The original's import form: author, visibility group and time as given (IMPORT_DATA). */
export type ImportedAttachment = NewAttachment & {
  authorLogin?: string | undefined;
  group?: string | undefined;
  created?: number | undefined;
};

const safeName = (name: string) => {
  const cleaned = oneLine(name).replace(/[/\\]/g, '_').trim().slice(0, 255);
  return cleaned || 'attachment';
};
const safeType = (type: string | undefined) =>
  type && /^[\w.+-]+\/[\w.+-]+$/.test(type) && type.length <= 200
    ? type.toLowerCase()
    : 'application/octet-stream';

async function store(
  em: Em,
  issue: IssueRef,
  files: AttachmentStore,
  input: NewAttachment,
  author: number,
  group: string | null,
  created: Date,
): Promise<AttachmentView> {
  const { hash, size } = await files.put(input.source, input.maxBytes);
  const name = safeName(input.name);
  const contentType = safeType(input.contentType);
  const id = (await em.insert(IssueAttachment, {
    issue: issue.id,
    name,
    contentHash: hash,
    size,
    contentType,
    author,
    groupName: group,
    createdAt: created,
  })) as number;
  const [row] = await em.execute<{ login: string }[]>('select login from users where id = ?', [author]);
  return {
    id,
    issueId: issue.readableId,
    name,
    size,
    contentType,
    authorLogin: row?.login ?? '',
    group,
    created: created.getTime(),
  };
}

/**
 * `POST /rest/issue/{id}/attachment`: CREATE_ATTACHMENT_ISSUE in the issue's project, checked
 * before a byte of the file is read; the file is streamed into the store under its hash.
 */
export async function addAttachment(em: Em, actor: Actor, files: AttachmentStore, input: NewAttachment) {
  const issue = await findReadableIssue(em, actor, input.issue);
  requirePermission(
    actor,
    'CREATE_ATTACHMENT_ISSUE',
    issue.projectId,
    `attach files in project [ ${issue.shortName} ]`,
  );
  return store(em, issue, files, input, actor.userId, null, new Date());
}

/**
 * `POST /rest/import/{issue}/attachment?authorLogin&group&created` (IMPORT_DATA): the author
 * (an unknown login becomes a system-user reference, as in the issue import), the group (kept,
 * not enforced) and the creation time as given.
 */
export async function importAttachment(
  em: Em,
  actor: Actor,
  files: AttachmentStore,
  input: ImportedAttachment,
) {
  requirePermission(actor, 'IMPORT_DATA', undefined, 'import data (IMPORT_DATA)');
  const issue = await findReadableIssue(em, actor, input.issue);
  const login = input.authorLogin?.trim() || actor.login;
  const author = (await resolveUserRefs(em, [login])).get(login.toLowerCase()) as number;
  const group = input.group?.trim() ? oneLine(input.group).trim().slice(0, 200) : null;
  return store(em, issue, files, input, author, group, new Date(input.created ?? Date.now()));
}

type Row = {
  id: number;
  name: string;
  size: number;
  content_type: string;
  content_hash: string;
  group_name: string | null;
  created_at: unknown;
  login: string;
};
const SELECT =
  'select a.id, a.name, a.size, a.content_type, a.content_hash, a.group_name, a.created_at, u.login ' +
  'from issue_attachments a join users u on u.id = a.author_id';
const toView = (issue: IssueRef, r: Row): AttachmentView => ({
  id: Number(r.id),
  issueId: issue.readableId,
  name: r.name,
  size: Number(r.size),
  contentType: r.content_type,
  authorLogin: r.login,
  group: r.group_name,
  created: toMs(r.created_at),
});

/** The attachments of a readable issue, oldest first. */
export async function listAttachments(em: Em, actor: Actor, readableId: string): Promise<AttachmentView[]> {
  const issue = await findReadableIssue(em, actor, readableId);
  const rows = await em.execute<Row[]>(`${SELECT} where a.issue_id = ? order by a.id`, [issue.id]);
  return rows.map((r) => toView(issue, r));
}

/** One attachment's bytes, for a reader of its issue (an unreadable issue is NOT_FOUND). */
export async function openAttachment(
  em: Em,
  actor: Actor,
  files: AttachmentStore,
  readableId: string,
  attachmentId: number,
): Promise<AttachmentView & { stream: Readable }> {
  const issue = await findReadableIssue(em, actor, readableId);
  const [row] = await em.execute<Row[]>(`${SELECT} where a.issue_id = ? and a.id = ?`, [
    issue.id,
    attachmentId,
  ]);
  if (!row) throw DomainError.notFound('Attachment', String(attachmentId));
  return { ...toView(issue, row), stream: await files.open(row.content_hash) };
}

/** DELETE_ATTACHMENT_ISSUE; the file goes with the next sweep when nothing else uses it. */
export async function deleteAttachment(em: Em, actor: Actor, readableId: string, attachmentId: number) {
  const issue = await findReadableIssue(em, actor, readableId);
  requirePermission(
    actor,
    'DELETE_ATTACHMENT_ISSUE',
    issue.projectId,
    `delete attachments in project [ ${issue.shortName} ]`,
  );
  const removed = await em.nativeDelete(IssueAttachment, { id: attachmentId, issue: issue.id });
  if (removed === 0) throw DomainError.notFound('Attachment', String(attachmentId));
}

/**
 * Removes stored files no attachment uses any more (their issue or attachment was deleted).
 * Only files older than `graceMs` are considered, so an upload whose row is not committed yet
 * keeps its file. Returns how many files were removed.
 */
export async function sweepAttachmentFiles(
  em: Em,
  files: AttachmentStore,
  graceMs = 3_600_000,
): Promise<number> {
  const candidates = await files.storedBefore(graceMs);
  let removed = 0;
  for (let i = 0; i < candidates.length; i += 500) {
    const chunk = candidates.slice(i, i + 500);
    const used = new Set(
      (
        await em.execute<{ content_hash: string }[]>(
          `select distinct content_hash from issue_attachments where content_hash in (${placeholders(chunk)})`,
          chunk,
        )
      ).map((r) => r.content_hash),
    );
    for (const hash of chunk)
      if (!used.has(hash)) {
        await files.remove(hash);
        removed++;
      }
  }
  return removed;
}
