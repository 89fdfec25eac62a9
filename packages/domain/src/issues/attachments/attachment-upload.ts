import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { canUseGroup, findGroupByName } from '../../groups/group-names.js';
import { IssueAttachment } from '../../model/attachment.entity.js';
import type { Em } from '../../orm/em.js';
import { dialectOfEm } from '../../orm/open-orm.js';
import { inTransaction } from '../../orm/transaction.js';
import { resolveUserRefs } from '../../users/user-refs.js';
import { findReadableIssue, type IssueRef } from '../find-issues.js';
import { recordIssueEvent } from '../history/issue-events.js';
import { attachmentName, attachmentType } from './attachment-names.js';
import type { AttachmentStore } from './attachment-store.js';
import type { AttachmentView } from './attachments.js';

/**
 * How many bytes of attachments (their sizes as uploaded, identical content counted each time)
 * one user may have authored, one issue may hold, and the installation may hold; 0: no limit.
 */
export type AttachmentQuotas = { perUserBytes: number; perIssueBytes: number; totalBytes: number };

const MiB = 1024 * 1024;
/** Far above screenshots and logs attached by hand; low enough that one account cannot fill a disk. */
export const DEFAULT_ATTACHMENT_QUOTAS: AttachmentQuotas = {
  perUserBytes: 1024 * MiB,
  perIssueBytes: 256 * MiB,
  totalBytes: 50 * 1024 * MiB,
};

/**
 * Where one upload goes: the issue, the largest file accepted, the quotas, and the visibility
 * group (`group`, as the original's "Attach File to Issue" takes it; empty means none).
 */
export type UploadTarget = {
  issue: string;
  maxBytes: number;
  quotas?: AttachmentQuotas | undefined;
  group?: string | undefined;
};

/** The original's import form: author, visibility group and time as given (IMPORT_DATA). */
export type ImportTarget = UploadTarget & {
  authorLogin?: string | undefined;
  group?: string | undefined;
  created?: number | undefined;
};

export type UploadedFile = {
  name: string;
  contentType?: string | undefined;
  source: AsyncIterable<Uint8Array>;
};

/**
 * One upload of one or more files to an issue: `addFile` streams each file into the store (no
 * row yet), `commit` then records them all in one transaction, or none (a refused file, a quota,
 * a deleted issue: nothing is attached; the stored bytes go with the next sweep).
 */
export type AttachmentUpload = {
  addFile(file: UploadedFile): Promise<void>;
  /** `group`: the form's own `group` field (it may follow the files), in place of the query's. */
  commit(form?: { group?: string | undefined }): Promise<AttachmentView[]>;
};

type Pending = { hash: string; size: number; name: string; contentType: string };
/**
 * What the rows say besides the files: the author (resolved in the writing transaction), the
 * group (and how a group named in the form is resolved), the time.
 */
type RowFacts = {
  author: (tx: Em) => Promise<number>;
  group: string | null;
  resolveGroup: (em: Em, name: string | undefined) => Promise<string | null>;
  created: Date;
  /** Watchers are told of an upload (an import tells no one). */
  notify: boolean;
};
type Quota = { limit: number; sql: string; params: unknown[]; what: string };

/**
 * The group an upload to `POST /rest/issue/{id}/attachment` is restricted to: an existing group
 * in its own spelling, 404 for an unknown one (as comments answer), none for an empty name (the
 * JetBrains library always sends `group=`). Who then sees the file: attachment-visibility.ts.
 */
/**
 * The upload's group (query or form): one the caller may use, by its own spelling. A group the
 * caller may not use answers exactly like a missing one (`canUseGroup`: its own groups, or all
 * with READ_USERGROUP), so names cannot be probed, as for comments.
 */
const usableGroup =
  (actor: Actor, projectId: number) =>
  async (em: Em, name: string | undefined): Promise<string | null> => {
    const trimmed = name?.trim();
    if (!trimmed) return null;
    const group = await findGroupByName(em, trimmed);
    if (!group || !canUseGroup(actor, group.id, [projectId])) throw DomainError.notFound('Group', trimmed);
    return group.name;
  };

/**
 * The import's group (`POST /rest/import/{issue}/attachment?group`): kept as given, in the
 * group's own spelling when it exists (a migration may bring files of groups not made yet).
 */
async function importedGroup(em: Em, name: string | undefined): Promise<string | null> {
  const given = name?.trim() ? attachmentName(name).slice(0, 200) : null;
  return given ? ((await findGroupByName(em, given))?.name ?? given) : null;
}

/**
 * `POST /rest/issue/{id}/attachment`: CREATE_ATTACHMENT_ISSUE in the issue's project, checked
 * (with the quotas and the query's group) before a byte of the body is read.
 */
export async function beginUpload(
  em: Em,
  actor: Actor,
  files: AttachmentStore,
  target: UploadTarget,
): Promise<AttachmentUpload> {
  const issue = await findReadableIssue(em, actor, target.issue);
  requirePermission(
    actor,
    'CREATE_ATTACHMENT_ISSUE',
    issue.projectId,
    `attach files in project [ ${issue.shortName} ]`,
  );
  const quotas = target.quotas ?? DEFAULT_ATTACHMENT_QUOTAS;
  const limits: Quota[] = [
    {
      limit: quotas.perUserBytes,
      sql: 'where author_id = ?',
      params: [actor.userId],
      what: `user [ ${actor.login} ]`,
    },
    {
      limit: quotas.perIssueBytes,
      sql: 'where issue_id = ?',
      params: [issue.id],
      what: `issue [ ${issue.readableId} ]`,
    },
    totalQuota(quotas),
  ];
  const resolveGroup = usableGroup(actor, issue.projectId);
  const group = await resolveGroup(em, target.group);
  return openUpload(em, files, issue, target.maxBytes, limits, {
    author: async () => actor.userId,
    group,
    resolveGroup,
    created: new Date(),
    notify: true,
  });
}

/**
 * `POST /rest/import/{issue}/attachment?authorLogin&group&created` (IMPORT_DATA): the author
 * (an unknown login becomes a system-user reference, as in the issue import), the group (kept,
 * not enforced) and the creation time as given. A migration brings what the old tracker held:
 * only the installation's total quota applies.
 */
export async function beginImportUpload(
  em: Em,
  actor: Actor,
  files: AttachmentStore,
  target: ImportTarget,
): Promise<AttachmentUpload> {
  requirePermission(actor, 'IMPORT_DATA', undefined, 'import data (IMPORT_DATA)');
  const issue = await findReadableIssue(em, actor, target.issue);
  const login = target.authorLogin?.trim() || actor.login;
  // Resolved when the rows are written: a refused upload leaves no placeholder behind.
  const author = async (tx: Em) => (await resolveUserRefs(tx, [login])).get(login.toLowerCase()) as number;
  // Kept in the group's own spelling when it exists (visibility compares names exactly).
  const group = await importedGroup(em, target.group);
  return openUpload(
    em,
    files,
    issue,
    target.maxBytes,
    [totalQuota(target.quotas ?? DEFAULT_ATTACHMENT_QUOTAS)],
    {
      author,
      group,
      resolveGroup: importedGroup,
      created: new Date(target.created ?? Date.now()),
      notify: false,
    },
  );
}

const totalQuota = (quotas: AttachmentQuotas): Quota => ({
  limit: quotas.totalBytes,
  sql: '',
  params: [],
  what: 'this installation',
});

const used = async (em: Em, quota: Quota) =>
  Number(
    (
      await em.execute<{ n: unknown }[]>(
        `select coalesce(sum(size), 0) as n from issue_attachments ${quota.sql}`,
        quota.params,
      )
    )[0]?.n ?? 0,
  );

/** `wanted`: the upload's bytes when known, else (refused as it streamed) undefined. */
const overQuota = (quota: Quota, inUse: number, wanted?: number) =>
  new DomainError(
    'CONFLICT',
    `Attachment quota: ${quota.what} may hold at most ${quota.limit} bytes of attachments; ${inUse} are in use and ` +
      (wanted === undefined
        ? `this upload goes past the ${Math.max(0, quota.limit - inUse)} bytes left.`
        : `this upload needs ${wanted} more.`),
  );

async function openUpload(
  em: Em,
  files: AttachmentStore,
  issue: IssueRef,
  maxBytes: number,
  quotas: Quota[],
  row: RowFacts,
): Promise<AttachmentUpload> {
  const applicable = quotas.filter((q) => q.limit > 0);
  const inUse = await Promise.all(applicable.map((q) => used(em, q)));
  // The quota with the least room left bounds the upload while it streams.
  let tightest: { quota: Quota; room: number; inUse: number } | null = null;
  applicable.forEach((quota, i) => {
    const room = quota.limit - (inUse[i] ?? 0);
    if (!tightest || room < tightest.room) tightest = { quota, room, inUse: inUse[i] ?? 0 };
  });
  const bound = tightest as { quota: Quota; room: number; inUse: number } | null;
  if (bound && bound.room <= 0) throw overQuota(bound.quota, bound.inUse);
  const pending: Pending[] = [];
  let pendingBytes = 0;
  return {
    async addFile(file) {
      const room = bound ? bound.room - pendingBytes : Number.POSITIVE_INFINITY;
      const limit = Math.min(maxBytes, room);
      try {
        const { hash, size } = await files.put(file.source, limit);
        pending.push({
          hash,
          size,
          name: attachmentName(file.name),
          contentType: attachmentType(file.contentType),
        });
        pendingBytes += size;
      } catch (error) {
        if (bound && limit < maxBytes && error instanceof DomainError && error.code === 'PAYLOAD_TOO_LARGE')
          throw overQuota(bound.quota, bound.inUse);
        throw error;
      }
    },
    async commit(form) {
      const facts =
        form?.group === undefined ? row : { ...row, group: await row.resolveGroup(em, form.group) };
      try {
        return await inTransaction(em, (tx) => insertRows(tx, issue, quotas, pending, facts));
      } catch (error) {
        // The issue was deleted while its files were uploading (the foreign key refused the rows).
        if (!(error instanceof DomainError) && !(await issueExists(em, issue.id)))
          throw DomainError.notFound('Issue', issue.readableId);
        throw error;
      }
    },
  };
}

/**
 * The rows of every file of the upload, in one transaction: the quotas are checked again with
 * the sizes as stored, under a lock on PostgreSQL (SQLite runs one writing transaction at a
 * time), so concurrent uploads cannot together pass a quota each passes alone.
 */
async function insertRows(
  tx: Em,
  issue: IssueRef,
  quotas: Quota[],
  pending: Pending[],
  row: RowFacts,
): Promise<AttachmentView[]> {
  if (dialectOfEm(tx) === 'postgresql')
    await tx
      .getConnection()
      .execute('select pg_advisory_xact_lock(727003)', [], 'all', tx.getTransactionContext());
  const wanted = pending.reduce((sum, file) => sum + file.size, 0);
  for (const quota of quotas) {
    if (quota.limit <= 0) continue;
    const inUse = await used(tx, quota);
    if (inUse + wanted > quota.limit) throw overQuota(quota, inUse, wanted);
  }
  const authorId = await row.author(tx);
  const [author] = await tx.execute<{ login: string }[]>('select login from users where id = ?', [authorId]);
  const views: AttachmentView[] = [];
  for (const file of pending) {
    const id = (await tx.insert(IssueAttachment, {
      issue: issue.id,
      name: file.name,
      contentHash: file.hash,
      size: file.size,
      contentType: file.contentType,
      author: authorId,
      groupName: row.group,
      createdAt: row.created,
    })) as number;
    views.push({
      id,
      issueId: issue.readableId,
      name: file.name,
      size: file.size,
      contentType: file.contentType,
      authorLogin: author?.login ?? '',
      group: row.group,
      created: row.created.getTime(),
    });
  }
  if (row.notify)
    await recordIssueEvent(tx, {
      issueId: issue.id,
      projectId: issue.projectId,
      authorId,
      parts: views.map((v) => ({ kind: 'attachment.added' as const, attachmentId: v.id })),
    });
  return views;
}

async function issueExists(em: Em, id: number): Promise<boolean> {
  const rows = await em.fork().execute<unknown[]>('select 1 from issues where id = ?', [id]);
  return rows.length > 0;
}
