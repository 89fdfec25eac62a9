import type { Readable } from 'node:stream';
import { type Actor, can, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { IssueAttachment } from '../../model/attachment.entity.js';
import type { Em } from '../../orm/em.js';
import { toMs } from '../../orm/row-values.js';
import { findReadableIssue, type IssueRef } from '../find-issues.js';
import type { AttachmentStore } from './attachment-store.js';
import {
  type AttachmentUpload,
  beginImportUpload,
  beginUpload,
  type ImportTarget,
  type UploadedFile,
  type UploadTarget,
} from './attachment-upload.js';
import { visibleAttachmentsSql } from './attachment-visibility.js';

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

/** One file uploaded on its own (`beginUpload` takes several). */
export type NewAttachment = UploadTarget & UploadedFile;

/** One file imported on its own (`beginImportUpload` takes several). */
export type ImportedAttachment = ImportTarget & UploadedFile;

/** Attaches one file: `beginUpload`, then the file, then the commit. */
export async function addAttachment(em: Em, actor: Actor, files: AttachmentStore, input: NewAttachment) {
  return single(await beginUpload(em, actor, files, input), input);
}

/** Imports one file: `beginImportUpload`, then the file, then the commit. */
export async function importAttachment(
  em: Em,
  actor: Actor,
  files: AttachmentStore,
  input: ImportedAttachment,
) {
  return single(await beginImportUpload(em, actor, files, input), input);
}

async function single(upload: AttachmentUpload, file: UploadedFile): Promise<AttachmentView> {
  await upload.addFile(file);
  return (await upload.commit())[0] as AttachmentView;
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
  const visible = visibleAttachmentsSql(actor);
  const rows = await em.execute<Row[]>(`${SELECT} where a.issue_id = ? and ${visible.sql} order by a.id`, [
    issue.id,
    ...visible.params,
  ]);
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
  // An attachment of a group the caller is not in answers as a missing one.
  const visible = visibleAttachmentsSql(actor);
  const [row] = await em.execute<Row[]>(`${SELECT} where a.issue_id = ? and a.id = ? and ${visible.sql}`, [
    issue.id,
    attachmentId,
    ...visible.params,
  ]);
  if (!row) throw DomainError.notFound('Attachment', String(attachmentId));
  return { ...toView(issue, row), stream: await files.open(row.content_hash) };
}

/**
 * Another user's attachment needs DELETE_ATTACHMENT_ISSUE; one's own, the permission to attach
 * files there (CREATE_ATTACHMENT_ISSUE): who may add a file may take it back, as the original let
 * authors manage their attachments. The file goes with the next sweep when nothing else uses it.
 */
export async function deleteAttachment(em: Em, actor: Actor, readableId: string, attachmentId: number) {
  const issue = await findReadableIssue(em, actor, readableId);
  const visible = visibleAttachmentsSql(actor);
  const [row] = await em.execute<{ author_id: number }[]>(
    `select a.author_id from issue_attachments a where a.id = ? and a.issue_id = ? and ${visible.sql}`,
    [attachmentId, issue.id, ...visible.params],
  );
  // One the caller cannot see is missing to it, whatever it may delete.
  if (!row) throw DomainError.notFound('Attachment', String(attachmentId));
  const own = Number(row.author_id) === actor.userId;
  if (!(own && can(actor, 'CREATE_ATTACHMENT_ISSUE', issue.projectId)))
    requirePermission(
      actor,
      'DELETE_ATTACHMENT_ISSUE',
      issue.projectId,
      `delete attachments of others in project [ ${issue.shortName} ]`,
    );
  const removed = await em.nativeDelete(IssueAttachment, { id: attachmentId, issue: issue.id });
  if (removed === 0) throw DomainError.notFound('Attachment', String(attachmentId));
}

/**
 * Removes stored contents no attachment uses any more (their issue or attachment was deleted)
 * and what interrupted uploads left. Only contents stored more than `graceMs` ago are considered,
 * so an upload whose row is not committed yet keeps its content. Returns how many were removed.
 */
export async function sweepAttachmentFiles(
  em: Em,
  files: AttachmentStore,
  graceMs = 3_600_000,
): Promise<number> {
  return files.removeUnused(em, graceMs);
}
