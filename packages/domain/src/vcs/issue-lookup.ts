import { formatIssueId, parseIssueId } from '../issues/issue-id.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, perLength, prepareRead } from '../orm/typed-query.js';

/** An issue a commit references (looked up without permissions: the integration is trusted). */
export type ReferencedIssue = {
  id: number;
  readableId: string;
  projectId: number;
  shortName: string;
  reporterId: number;
  permittedGroupId: number | null;
};

/** `prj-012` → `PRJ-12`; null for what cannot be an issue id. */
export function issueKey(readableId: string): string | null {
  const key = parseIssueId(readableId);
  return key ? `${key.shortNameKey}-${key.number}` : null;
}

const CHUNK = 200;

/** Issues by (project key, number): one statement per number of keys, prepared once. */
const issuesByKey = perLength(
  (count) =>
    prepareRead((param: Param<{ keys: { shortNameKey: string; number: number }[] }>) =>
      tables
        .selectFrom('issues as i')
        .innerJoin('projects as p', 'p.id', 'i.project_id')
        .select([
          'i.id',
          'i.project_id',
          'i.number_in_project',
          'i.reporter_id',
          'i.permitted_group_id',
          'p.short_name',
          'p.short_name_key',
        ])
        .where((eb) =>
          eb.or(
            Array.from({ length: count }, (_, k) =>
              eb.and([
                eb('p.short_name_key', '=', param.item('keys', k, 'shortNameKey')),
                eb('i.number_in_project', '=', param.item('keys', k, 'number')),
              ]),
            ),
          ),
        ),
    ),
  CHUNK,
);

/** Existing issues by `issueKey`, in chunks of bounded SQL size. */
export async function findIssuesByKey(
  em: Em,
  readableIds: readonly string[],
): Promise<Map<string, ReferencedIssue>> {
  const keys = [...new Set(readableIds.flatMap((id) => parseIssueId(id) ?? []))];
  const found = new Map<string, ReferencedIssue>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    const rows = await issuesByKey(chunk.length).all(em, { keys: chunk });
    for (const r of rows) {
      found.set(`${r.short_name_key}-${Number(r.number_in_project)}`, {
        id: Number(r.id),
        readableId: formatIssueId(r.short_name, Number(r.number_in_project)),
        projectId: Number(r.project_id),
        shortName: r.short_name,
        reporterId: Number(r.reporter_id),
        permittedGroupId: r.permitted_group_id === null ? null : Number(r.permitted_group_id),
      });
    }
  }
  return found;
}
