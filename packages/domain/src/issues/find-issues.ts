import type { PermissionKey } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import { DomainError } from '../errors.js';
import type { Em } from '../orm/em.js';
import { toMsOrNull } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import { readRows } from '../orm/statements.js';
import { formatIssueId, parseIssueId } from './issue-id.js';

/** The few columns most use cases need about an issue. */
export type IssueRef = {
  id: number;
  readableId: string;
  projectId: number;
  shortName: string;
  numberInProject: number;
  resolvedAt: number | null;
  reporterId: number;
  /** The group the issue is restricted to (`permittedGroup`), if any. */
  permittedGroupId: number | null;
};

type Row = {
  id: number;
  project_id: number;
  number_in_project: number;
  resolved_at: unknown;
  short_name: string;
  short_name_key: string;
  reporter_id: number;
  permitted_group_id: number | null;
};

const SELECT =
  'select i.id, i.project_id, i.number_in_project, i.resolved_at, i.reporter_id, i.permitted_group_id, ' +
  'p.short_name, p.short_name_key ' +
  'from issues i join projects p on p.id = i.project_id';

const toRef = (r: Row): IssueRef => ({
  id: Number(r.id),
  readableId: formatIssueId(r.short_name, Number(r.number_in_project)),
  projectId: Number(r.project_id),
  shortName: r.short_name,
  numberInProject: Number(r.number_in_project),
  resolvedAt: toMsOrNull(r.resolved_at),
  reporterId: Number(r.reporter_id),
  permittedGroupId: r.permitted_group_id === null ? null : Number(r.permitted_group_id),
});

export const issueNotFound = (readableId: string) => DomainError.notFound('Issue', readableId);

/**
 * Resolves readable ids (`PRJ-12`, case-insensitive) with one query, in the given order
 * without duplicates. An issue the actor cannot read (auth/issue-access.ts), or whose project
 * does not give it `permission` when given, fails exactly like a missing one: NOT_FOUND.
 */
export async function findReadableIssues(
  em: Em,
  actor: Actor,
  readableIds: readonly string[],
  permission: PermissionKey = 'READ_ISSUE',
): Promise<IssueRef[]> {
  return lookUpReadableIssues(em, actor, readableIds, permission, (id) => {
    throw issueNotFound(id);
  });
}

/**
 * The issues of `readableIds` that still exist and the actor may read, in the given order:
 * after a command that may have deleted some (the others are left out, not refused).
 */
export function findRemainingReadableIssues(
  em: Em,
  actor: Actor,
  readableIds: readonly string[],
): Promise<IssueRef[]> {
  return lookUpReadableIssues(em, actor, readableIds, 'READ_ISSUE', () => undefined);
}

async function lookUpReadableIssues(
  em: Em,
  actor: Actor,
  readableIds: readonly string[],
  permission: PermissionKey,
  missing: (readableId: string) => undefined,
): Promise<IssueRef[]> {
  const parsed = readableIds.map((id) => ({ id, key: parseIssueId(id) }));
  const bad = parsed.find((p) => p.key === null);
  if (bad) throw issueNotFound(bad.id);
  if (parsed.length === 0) return [];
  const keys = parsed.map((p) => p.key as NonNullable<(typeof p)['key']>);
  const rows = await readRows<Row>(
    em,
    `${SELECT} where ${keys.map(() => '(p.short_name_key = ? and i.number_in_project = ?)').join(' or ')}`,
    keys.flatMap((k) => [k.shortNameKey, k.number]),
  );
  const byKey = new Map(rows.map((r) => [`${r.short_name_key}-${Number(r.number_in_project)}`, toRef(r)]));
  const result = new Map<number, IssueRef>();
  for (const { id, key } of parsed) {
    const ref = byKey.get(`${key?.shortNameKey}-${key?.number}`);
    if (!ref || !canReadIssue(actor, ref, permission)) missing(id);
    else result.set(ref.id, ref);
  }
  return [...result.values()];
}

export async function findReadableIssue(em: Em, actor: Actor, readableId: string): Promise<IssueRef> {
  const [ref] = await findReadableIssues(em, actor, [readableId]);
  if (!ref) throw issueNotFound(readableId);
  return ref;
}

/**
 * Maps database ids (from the compressed persistent ids legacy clients send) to the
 * issues the actor can read; unknown and unreadable ids are skipped.
 */
export async function findReadableIssuesByDbIds(
  em: Em,
  actor: Actor,
  dbIds: readonly number[],
): Promise<IssueRef[]> {
  const ids = [...new Set(dbIds.filter((id) => Number.isSafeInteger(id)))];
  if (ids.length === 0) return [];
  const rows = await readRows<Row>(em, `${SELECT} where i.id in (${placeholders(ids)})`, ids);
  const byId = new Map(rows.map((r) => [Number(r.id), toRef(r)]));
  return ids.flatMap((id) => {
    const ref = byId.get(id);
    return ref && canReadIssue(actor, ref) ? [ref] : [];
  });
}

/** Issues by database id, without any permission check (callers check it); unknown ids are skipped. */
export async function loadIssueRefs(em: Em, dbIds: readonly number[]): Promise<IssueRef[]> {
  const ids = [...new Set(dbIds)];
  if (ids.length === 0) return [];
  const rows = await readRows<Row>(em, `${SELECT} where i.id in (${placeholders(ids)})`, ids);
  return rows.map(toRef);
}
