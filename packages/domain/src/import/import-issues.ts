import type { Actor } from '../auth/actor.js';
import { findGroupByName, groupNameKey } from '../groups/group-names.js';
import { importAssigneeGroup, requireImportMayJoin } from '../groups/groups.js';
import { type ImportItemResult, imported, refused } from '../issues/import-report.js';
import { deferSearchDocuments, writeSearchDocuments } from '../issues/search/search-documents.js';
import { noteBulkWrite } from '../issues/search/search-engine.js';
import { STAR_TAG, starTagOf } from '../issues/tags/tag-lookup.js';
import { IssueComment } from '../model/comment.entity.js';
import { tables } from '../model/database.js';
import { Issue } from '../model/issue.entity.js';
import { bulkInsert, bulkInsertReturning } from '../orm/bulk-insert.js';
import type { Em } from '../orm/em.js';
import { toBool, toMs } from '../orm/row-values.js';
import { paddedInList } from '../orm/sql-fragments.js';
import { runStatement } from '../orm/statements.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, perLength, prepareRead, readQuery } from '../orm/typed-query.js';
import { isUniqueViolation } from '../orm/unique.js';
import { readableProjectId } from '../projects/projects.js';
import { oneLine } from '../text/user-text.js';
import { resolveUserRefs } from '../users/user-refs.js';
import {
  defaultAssignments,
  type FieldAssignment,
  type FieldCatalogue,
  loadFieldCatalogue,
  newFieldResolutions,
  projectDefaults,
  writeFieldValues,
} from './field-values.js';
import { requireImport } from './import-users.js';
import { gainsMembers, refuseLookAlikes } from './plan-checks.js';
import { EVERYONE, first, type ImportIssuesInput, loginCheck, type Plan, planIssue } from './plan-issue.js';

export type { ImportedComment, ImportedIssue, ImportIssuesInput } from './plan-issue.js';
export { MAX_IMPORT_ISSUES } from './plan-issue.js';

/**
 * `PUT /rest/import/{project}/issues` (IMPORT_DATA): creates or, for a number that exists,
 * updates each issue with the numbers, times, reporter, comments, votes, watchers and field
 * values given. A problem in one issue is reported for it alone; the valid ones are stored in
 * one transaction with a fixed number of statements per request (no per-issue queries), and
 * should that transaction fail, each issue is retried in its own. The project's next number
 * moves past the highest imported one under the project row's lock, as normal creation takes it.
 * A second identical run changes nothing (comments are matched by author and time).
 */
export async function importIssues(
  em: Em,
  actor: Actor,
  input: ImportIssuesInput,
): Promise<ImportItemResult[]> {
  requireImport(actor);
  const projectId = await readableProjectId(em, actor, oneLine(input.project).trim());
  const catalogue = await loadFieldCatalogue(em, projectId);
  const groupName = input.assigneeGroup?.trim();
  // An existing group gaining members is checked before anything is stored (below, once the
  // assignees are known); a missing one is created only once there is something to store.
  const existingGroup = groupName ? await findGroupByName(em, groupName) : null;
  const results: ImportItemResult[] = [];
  const plans: Plan[] = [];
  const numbers = new Set<number>();
  // The groups issues are visible to, looked up once per request.
  const groupIds = new Map<string, number>();
  const groupNames = new Set(
    input.issues.flatMap((i) =>
      i.fields.filter((f) => f.name.trim().toLowerCase() === 'permittedgroup').map((f) => first(f.values)),
    ),
  );
  for (const name of groupNames) {
    if (!name || EVERYONE.has(name.toLowerCase())) continue;
    const found = await findGroupByName(em, name);
    if (found) groupIds.set(groupNameKey(name), found.id);
  }
  // A request's issues repeat a few field values: each (field, texts) is resolved once.
  const resolutions = newFieldResolutions();
  const isLogin = loginCheck();
  for (const [index, issue] of input.issues.entries()) {
    const planned = await planIssue(issue, index, catalogue, groupIds, resolutions, isLogin);
    const id = first(
      issue.fields.find((f) => f.name.trim().toLowerCase() === 'numberinproject')?.values ?? [],
    );
    if (Array.isArray(planned)) results[index] = refused(id, planned);
    else if (numbers.has(planned.number))
      results[index] = refused(id, [
        {
          message: `numberInProject ${planned.number} appears twice in this request`,
          fieldName: 'numberInProject',
          value: id,
        },
      ]);
    else {
      numbers.add(planned.number);
      plans.push(planned);
      results[index] = imported(String(planned.number));
    }
  }
  await refuseLookAlikes(em, plans, results);
  if (existingGroup && (await gainsMembers(em, existingGroup.id, plans)))
    await requireImportMayJoin(em, actor, existingGroup);
  if (plans.length === 0 || input.test) return results;
  const groupId = groupName ? (existingGroup ?? (await importAssigneeGroup(em, actor, groupName))).id : null;
  const refuseCreatedHere = (numbers: readonly number[]) => {
    for (const plan of plans)
      if (numbers.includes(plan.number))
        results[plan.index] = refused(String(plan.number), [
          {
            message: `numberInProject ${plan.number} is an issue created in Trackline, not by an import: an import never overwrites it`,
            fieldName: 'numberInProject',
            value: String(plan.number),
          },
        ]);
  };
  try {
    refuseCreatedHere(await inTransaction(em, (tx) => writeIssues(tx, projectId, catalogue, plans, groupId)));
  } catch {
    // Something only the database could see (a concurrent writer): one transaction per issue.
    for (const plan of plans) {
      try {
        refuseCreatedHere(
          await inTransaction(em, (tx) => writeIssues(tx, projectId, catalogue, [plan], groupId)),
        );
      } catch (error) {
        results[plan.index] = refused(String(plan.number), [
          {
            message: isUniqueViolation(error)
              ? 'could not be stored: it clashed with a concurrent change; import it again'
              : 'could not be stored: the database refused it',
            fieldName: 'numberInProject',
            value: String(plan.number),
          },
        ]);
      }
    }
  }
  // Statistics follow a bulk load (search plans); their upkeep never fails the import.
  await noteBulkWrite(em, plans.length).catch(() => {});
  return results;
}

// The reads of every request, prepared once per (padded) length of their lists.
const issuesByNumber = perLength((count) =>
  prepareRead((param: Param<{ projectId: number; numbers: number[] }>) =>
    tables
      .selectFrom('issues')
      .select(['id', 'number_in_project', 'imported'])
      .where('project_id', '=', param('projectId'))
      .where('number_in_project', 'in', param.list('numbers', count)),
  ),
);
const starTagsOf = perLength((count) =>
  prepareRead((param: Param<{ owners: number[] }>) =>
    tables
      .selectFrom('tags')
      .select(['id', 'owner_id'])
      .where('name_key', '=', STAR_TAG.toLowerCase())
      .where('owner_id', 'in', param.list('owners', count)),
  ),
);

/**
 * Writes the plans; answers the numbers it refused: issues people created in Trackline (not by an
 * import), which an import never overwrites. The project row's lock, taken first, orders this
 * against normal creation: an issue created before it is seen here and refused, one created
 * after it gets a number past the imported ones.
 */
async function writeIssues(
  tx: Em,
  projectId: number,
  catalogue: FieldCatalogue,
  allPlans: Plan[],
  groupId: number | null,
): Promise<number[]> {
  const highest = Math.max(...allPlans.map((p) => p.number));
  // First statement: takes the project row's lock, so normal creation waits for this import
  // and then allocates past the imported numbers.
  await runStatement(
    tx,
    'update projects set next_number = case when next_number <= ? then ? else next_number end where id = ?',
    [highest, highest + 1, projectId],
  );
  const numbers = paddedInList(allPlans.map((p) => p.number));
  const found = await issuesByNumber(numbers.length).all(tx, { projectId, numbers });
  const createdHere = found.filter((r) => !toBool(r.imported)).map((r) => Number(r.number_in_project));
  const plans = allPlans.filter((p) => !createdHere.includes(p.number));
  if (plans.length === 0) return createdHere;
  const existing = new Map(found.map((r) => [Number(r.number_in_project), Number(r.id)]));
  // PostgreSQL: each issue's search document written once, at the end (search-documents.ts).
  await deferSearchDocuments(tx);

  const logins = new Set<string>();
  for (const p of plans) {
    logins.add(p.reporter);
    if (p.updater) logins.add(p.updater);
    for (const l of [...p.voters, ...p.watchers, ...p.assignments.flatMap((a) => a.logins)]) logins.add(l);
    for (const c of p.comments) logins.add(c.author);
  }
  const userIds = await resolveUserRefs(tx, logins);
  const userId = (login: string) => userIds.get(login.toLowerCase()) as number;

  const resolvedAt = (p: Plan, assignments: FieldAssignment[]) => {
    if (p.resolved !== null) return new Date(p.resolved);
    const state = assignments.find((a) => a.state);
    if (!state) return undefined;
    return state.values.some((v) => v.resolved) ? new Date(p.updated) : null;
  };

  const fresh = plans.filter((p) => !existing.has(p.number));
  const byIssue = new Map<number, FieldAssignment[]>();
  if (fresh.length) {
    const defaults = projectDefaults(catalogue);
    const withDefaults = new Map(
      fresh.map((p) => [
        p.number,
        defaults.length ? [...p.assignments, ...defaultAssignments(defaults, p.named)] : p.assignments,
      ]),
    );
    const inserted = await bulkInsertReturning(
      tx,
      'issues',
      [
        'project_id',
        'number_in_project',
        'summary',
        'description',
        'reporter_id',
        'updater_id',
        'permitted_group_id',
        'created_at',
        'updated_at',
        'resolved_at',
        'imported',
      ],
      fresh.map((p) => [
        projectId,
        p.number,
        p.summary,
        p.description,
        userId(p.reporter),
        p.updater ? userId(p.updater) : null,
        p.permittedGroupId,
        new Date(p.created),
        new Date(p.updated),
        resolvedAt(p, withDefaults.get(p.number) ?? []) ?? null,
        true,
      ]),
      ['id', 'number_in_project'],
    );
    for (const r of inserted) existing.set(Number(r.number_in_project), Number(r.id));
    for (const p of fresh) byIssue.set(existing.get(p.number) as number, withDefaults.get(p.number) ?? []);
  }
  const replacing: number[] = [];
  for (const p of plans) {
    const id = existing.get(p.number) as number;
    if (byIssue.has(id)) continue;
    replacing.push(id);
    byIssue.set(id, p.assignments);
    const resolved = resolvedAt(p, p.assignments);
    await tx.nativeUpdate(
      Issue,
      { id },
      {
        summary: p.summary,
        description: p.description,
        reporter: userId(p.reporter),
        ...(p.updater ? { updater: userId(p.updater) } : {}),
        permittedGroup: p.permittedGroupId,
        createdAt: new Date(p.created),
        updatedAt: new Date(p.updated),
        ...(resolved === undefined ? {} : { resolvedAt: resolved }),
      },
    );
  }
  await writeFieldValues(tx, catalogue, byIssue, userIds, replacing);
  if (groupId !== null) {
    const assignees = new Set(plans.flatMap((p) => p.assignments.flatMap((a) => a.logins.map(userId))));
    await bulkInsert(
      tx,
      'group_members',
      ['group_id', 'user_id'],
      [...assignees].map((user) => [groupId, user]),
      { ignoreConflicts: true },
    );
  }
  await writeComments(tx, plans, existing, userId, replacing);
  await writeMarks(tx, plans, existing, userId, replacing);
  await writeSearchDocuments(
    tx,
    plans.map((p) => existing.get(p.number) as number),
  );
  return createdHere;
}

/** Adds the comments not there yet (same author and creation time), updating changed texts. */
async function writeComments(
  tx: Em,
  plans: Plan[],
  ids: Map<number, number>,
  userId: (login: string) => number,
  replacing: number[],
) {
  const known = new Map<string, { id: number; text: string; updated: number }>();
  if (replacing.length) {
    const rows = await readQuery(
      tx,
      tables
        .selectFrom('issue_comments')
        .select(['id', 'issue_id', 'author_id', 'text', 'created_at', 'updated_at'])
        .where('issue_id', 'in', replacing),
    );
    for (const r of rows)
      known.set(`${r.issue_id}:${r.author_id}:${toMs(r.created_at)}`, {
        id: Number(r.id),
        text: r.text,
        updated: toMs(r.updated_at),
      });
  }
  const rows = [];
  for (const p of plans) {
    const issue = ids.get(p.number) as number;
    for (const c of p.comments) {
      const author = userId(c.author);
      const old = known.get(`${issue}:${author}:${c.created}`);
      if (!old)
        rows.push({
          issue,
          author,
          text: c.text,
          createdAt: new Date(c.created),
          updatedAt: new Date(c.updated),
        });
      else if (old.text !== c.text || old.updated !== c.updated)
        await tx.nativeUpdate(IssueComment, { id: old.id }, { text: c.text, updatedAt: new Date(c.updated) });
    }
  }
  await bulkInsert(
    tx,
    'issue_comments',
    ['issue_id', 'author_id', 'text', 'created_at', 'updated_at'],
    rows.map((r) => [r.issue, r.author, r.text, r.createdAt, r.updatedAt]),
  );
}

/** Votes and stars (watchers) not there yet. */
async function writeMarks(
  tx: Em,
  plans: Plan[],
  ids: Map<number, number>,
  userId: (login: string) => number,
  replacing: number[],
) {
  for (const [table, pick] of [
    ['issue_votes', (p: Plan) => p.voters],
    ['issue_stars', (p: Plan) => p.watchers],
  ] as const) {
    const known = new Set<string>();
    if (replacing.length) {
      const rows = await readQuery(
        tx,
        tables.selectFrom(table).select(['issue_id', 'user_id']).where('issue_id', 'in', replacing),
      );
      for (const r of rows) known.add(`${r.issue_id}:${r.user_id}`);
    }
    const rows: { issue: number; user: number }[] = [];
    for (const p of plans) {
      const issue = ids.get(p.number) as number;
      for (const login of pick(p)) {
        const key = `${issue}:${userId(login)}`;
        if (known.has(key)) continue;
        known.add(key);
        rows.push({ issue, user: userId(login) });
      }
    }
    await bulkInsert(
      tx,
      table,
      ['issue_id', 'user_id'],
      rows.map((r) => [r.issue, r.user]),
    );
    if (table === 'issue_stars') await tagStars(tx, rows);
  }
}

/**
 * A star is also its user's own `Star` tag on the issue (issues/tags/tag-lookup.ts), as the
 * `star` command leaves it: `tag: Star` finds imported stars too. Each watcher's tag is created
 * when missing (two statements per request, whatever the number of stars).
 */
async function tagStars(tx: Em, stars: readonly { issue: number; user: number }[]) {
  if (stars.length === 0) return;
  const owners = [...new Set(stars.map((s) => s.user))];
  const padded = paddedInList(owners);
  const found = await starTagsOf(padded.length).all(tx, { owners: padded });
  const tagOf = new Map(found.map((t) => [Number(t.owner_id), Number(t.id)]));
  for (const owner of owners)
    if (!tagOf.has(owner)) tagOf.set(owner, (await starTagOf(tx, owner, true))?.id as number);
  await bulkInsert(
    tx,
    'issue_tags',
    ['issue_id', 'tag_id'],
    stars.map((s) => [s.issue, tagOf.get(s.user)]),
    { ignoreConflicts: true },
  );
}
