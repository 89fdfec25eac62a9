import { MAX_TEXT_LENGTH } from '@trackline/contracts';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import {
  ProjectTimeTracking,
  TimeTrackingSettings,
  WorkItem,
  WorkType,
} from '../../model/work-item.entity.js';
import type { Em } from '../../orm/em.js';
import { toBool, toMs } from '../../orm/row-values.js';
import { inTransaction } from '../../orm/transaction.js';
import { onUniqueViolation } from '../../orm/unique.js';
import { getReadableProject } from '../../projects/projects.js';
import { oneLine, storableText } from '../../text/user-text.js';
import { isReferenceLogin, resolveUserRefs } from '../../users/user-refs.js';
import { findReadableIssue, type IssueRef } from '../find-issues.js';
import { type ImportItemResult, imported, parseTimestamp, refused } from '../import-report.js';

export type WorkItemView = {
  id: number;
  issueId: string;
  date: number;
  /** Minutes. */
  duration: number;
  description: string;
  workType: string | null;
  author: { login: string; fullName: string };
};

export type WorkItemInput = {
  /** ms since the epoch; now when absent. */
  date?: number | undefined;
  duration: number;
  description?: string | undefined;
  workType?: string | undefined;
};

const MAX_DURATION = 60 * 24 * 366;

function checkInput(input: Partial<WorkItemInput>) {
  if (
    input.duration !== undefined &&
    !(Number.isInteger(input.duration) && input.duration >= 1 && input.duration <= MAX_DURATION)
  )
    throw DomainError.invalid('duration', `must be a whole number of minutes from 1 to ${MAX_DURATION}`);
  if (input.description !== undefined && input.description.length > MAX_TEXT_LENGTH)
    throw DomainError.invalid('description', `must be at most ${MAX_TEXT_LENGTH} characters`);
}

type Row = {
  id: number;
  date: unknown;
  duration: number;
  description: string;
  type_name: string | null;
  login: string;
  full_name: string;
  author_id: number;
};
const SELECT =
  'select w.id, w.date, w.duration, w.description, t.name as type_name, u.login, u.full_name, w.author_id ' +
  'from work_items w join users u on u.id = w.author_id left join work_types t on t.id = w.work_type_id';
const toView = (issue: IssueRef, r: Row): WorkItemView => ({
  id: Number(r.id),
  issueId: issue.readableId,
  date: toMs(r.date),
  duration: Number(r.duration),
  description: r.description,
  workType: r.type_name,
  author: { login: r.login, fullName: r.full_name },
});

/** The work type named `name` (any case), created when missing (a concurrent creator wins the insert). */
async function workTypeId(em: Em, name: string | undefined): Promise<number | null> {
  const trimmed = oneLine(name ?? '').trim();
  if (!trimmed) return null;
  if (trimmed.length > 100) throw DomainError.invalid('worktype', 'must be at most 100 characters');
  const find = () => em.findOne(WorkType, { nameKey: trimmed.toLowerCase() });
  const found = await find();
  if (found) return found.id;
  return onUniqueViolation(
    async () => (await em.insert(WorkType, { name: trimmed, nameKey: trimmed.toLowerCase() })) as number,
    async () => (await find())?.id ?? null,
  );
}

async function readableWorkIssue(em: Em, actor: Actor, readableId: string): Promise<IssueRef> {
  const issue = await findReadableIssue(em, actor, readableId);
  requirePermission(
    actor,
    'READ_WORK_ITEM',
    issue.projectId,
    `read work items in project [ ${issue.shortName} ]`,
  );
  return issue;
}

/** `GET /rest/issue/{id}/timetracking/workitem`: READ_WORK_ITEM in the issue's project. */
export async function listWorkItems(em: Em, actor: Actor, readableId: string): Promise<WorkItemView[]> {
  const issue = await readableWorkIssue(em, actor, readableId);
  const rows = await em.execute<Row[]>(`${SELECT} where w.issue_id = ? order by w.date, w.id`, [issue.id]);
  return rows.map((r) => toView(issue, r));
}

async function loadOne(em: Em, issue: IssueRef, id: number): Promise<Row> {
  const [row] = await em.execute<Row[]>(`${SELECT} where w.issue_id = ? and w.id = ?`, [issue.id, id]);
  if (!row) throw DomainError.notFound('Work item', String(id));
  return row;
}

/** CREATE_WORK_ITEM; the actor is the author. A new work type name is created. */
export async function createWorkItem(
  em: Em,
  actor: Actor,
  readableId: string,
  input: WorkItemInput,
): Promise<WorkItemView> {
  const issue = await readableWorkIssue(em, actor, readableId);
  requirePermission(
    actor,
    'CREATE_WORK_ITEM',
    issue.projectId,
    `add work items in project [ ${issue.shortName} ]`,
  );
  const id = await insertWorkItem(em, actor.userId, issue.id, input);
  return toView(issue, await loadOne(em, issue, id));
}

/**
 * Writes a work item of `authorId` (its input checked; a new work type name is created): the one
 * insertion behind the route and the `work` command, after their permission checks.
 */
export async function insertWorkItem(
  em: Em,
  authorId: number,
  issueId: number,
  input: WorkItemInput,
): Promise<number> {
  checkInput(input);
  return (await em.insert(WorkItem, {
    issue: issueId,
    author: authorId,
    date: new Date(input.date ?? Date.now()),
    duration: input.duration,
    description: storableText(input.description ?? ''),
    workType: await workTypeId(em, input.workType),
    createdAt: new Date(),
  })) as number;
}

/** Whether a project tracks time (its settings say so; a project never configured does not). */
export async function tracksTime(em: Em, projectId: number): Promise<boolean> {
  const [row] = await em.execute<{ enabled: unknown }[]>(
    'select enabled from project_time_tracking where project_id = ?',
    [projectId],
  );
  return toBool(row?.enabled ?? false);
}

/** Own work items need UPDATE_WORK_ITEM, others' UPDATE_NOT_OWN_WORK_ITEM (for update and delete). */
async function editable(em: Em, actor: Actor, readableId: string, id: number) {
  const issue = await readableWorkIssue(em, actor, readableId);
  const row = await loadOne(em, issue, id);
  const own = Number(row.author_id) === actor.userId;
  requirePermission(
    actor,
    own ? 'UPDATE_WORK_ITEM' : 'UPDATE_NOT_OWN_WORK_ITEM',
    issue.projectId,
    own
      ? `change work items in project [ ${issue.shortName} ]`
      : `change others' work items in project [ ${issue.shortName} ]`,
  );
  return issue;
}

export async function updateWorkItem(
  em: Em,
  actor: Actor,
  readableId: string,
  id: number,
  input: Partial<WorkItemInput>,
): Promise<WorkItemView> {
  const issue = await editable(em, actor, readableId, id);
  checkInput(input);
  await em.nativeUpdate(
    WorkItem,
    { id },
    {
      ...(input.date !== undefined ? { date: new Date(input.date) } : {}),
      ...(input.duration !== undefined ? { duration: input.duration } : {}),
      ...(input.description !== undefined ? { description: storableText(input.description) } : {}),
      ...(input.workType !== undefined ? { workType: await workTypeId(em, input.workType) } : {}),
    },
  );
  return toView(issue, await loadOne(em, issue, id));
}

export async function deleteWorkItem(em: Em, actor: Actor, readableId: string, id: number): Promise<void> {
  await editable(em, actor, readableId, id);
  await em.nativeDelete(WorkItem, { id });
}

export type ImportedWorkItem = {
  date: string;
  duration: string;
  description?: string | undefined;
  worktype?: string | undefined;
  author?: string | undefined;
};

/**
 * `PUT /rest/import/issue/{id}/workitems` (IMPORT_DATA): one result per item; an unknown
 * author becomes a system-user reference, an unknown work type is created. An item equal to
 * one the issue has (author, date, duration, description) is not added again (re-runs).
 */
export async function importWorkItems(
  em: Em,
  actor: Actor,
  readableId: string,
  items: ImportedWorkItem[],
): Promise<ImportItemResult[]> {
  requirePermission(actor, 'IMPORT_DATA', undefined, 'import data (IMPORT_DATA)');
  const issue = await findReadableIssue(em, actor, readableId);
  const results: ImportItemResult[] = [];
  const valid: {
    index: number;
    date: number;
    duration: number;
    description: string;
    worktype?: string;
    author: string;
  }[] = [];
  items.forEach((item, index) => {
    const id = String(index + 1);
    const date = parseTimestamp(item.date);
    const duration = Number(item.duration.trim());
    const author = item.author?.trim() || actor.login;
    const problems = [];
    if (date === null)
      problems.push({
        message: 'date must be a time in ms since the epoch',
        fieldName: 'date',
        value: item.date,
      });
    if (!(Number.isInteger(duration) && duration >= 1 && duration <= MAX_DURATION))
      problems.push({
        message: `duration must be a whole number of minutes from 1 to ${MAX_DURATION}`,
        fieldName: 'duration',
        value: item.duration,
      });
    if (!isReferenceLogin(author))
      problems.push({ message: 'author must be a login', fieldName: 'author', value: author });
    if ((item.description ?? '').length > MAX_TEXT_LENGTH)
      problems.push({
        message: `description must be at most ${MAX_TEXT_LENGTH} characters`,
        fieldName: 'description',
      });
    if ((item.worktype ?? '').trim().length > 100)
      problems.push({ message: 'worktype must be at most 100 characters', fieldName: 'worktype' });
    if (problems.length || date === null) results[index] = refused(id, problems);
    else {
      valid.push({
        index,
        date,
        duration,
        description: storableText(item.description ?? ''),
        author,
        ...(item.worktype ? { worktype: item.worktype } : {}),
      });
      results[index] = imported(id);
    }
  });
  if (valid.length === 0) return results;
  await inTransaction(em, async (tx) => {
    const users = await resolveUserRefs(
      tx,
      valid.map((v) => v.author),
    );
    const existing = new Set(
      (
        await tx.execute<{ author_id: number; date: unknown; duration: number; description: string }[]>(
          'select author_id, date, duration, description from work_items where issue_id = ?',
          [issue.id],
        )
      ).map((r) => `${r.author_id}|${toMs(r.date)}|${r.duration}|${r.description}`),
    );
    for (const v of valid) {
      const author = users.get(v.author.toLowerCase()) as number;
      const key = `${author}|${v.date}|${v.duration}|${v.description}`;
      if (existing.has(key)) continue;
      existing.add(key);
      await tx.insert(WorkItem, {
        issue: issue.id,
        author,
        date: new Date(v.date),
        duration: v.duration,
        description: v.description,
        workType: await workTypeId(tx, v.worktype),
        createdAt: new Date(),
      });
    }
  });
  return results;
}

export type WorkTypeView = { id: number; name: string };

export async function listWorkTypes(em: Em): Promise<WorkTypeView[]> {
  return (await em.find(WorkType, {}, { orderBy: { nameKey: 'asc' } })).map((t) => ({
    id: t.id,
    name: t.name,
  }));
}

/** Work types are shared by every project: creating or deleting one needs UPDATE_PROJECT globally. */
export async function createWorkType(em: Em, actor: Actor, name: string): Promise<WorkTypeView> {
  requirePermission(actor, 'UPDATE_PROJECT', undefined, 'administer work types (UPDATE_PROJECT globally)');
  const trimmed = oneLine(name).trim();
  if (await em.findOne(WorkType, { nameKey: trimmed.toLowerCase() }))
    throw DomainError.alreadyExists('Work type', trimmed);
  const id = await workTypeId(em, trimmed);
  return { id: id as number, name: trimmed };
}

/** One work type by its id (what `Location` and `url` name) or, failing that, its name. */
export async function getWorkType(em: Em, ref: string): Promise<WorkTypeView> {
  const trimmed = oneLine(ref).trim();
  const byId = /^\d{1,10}$/.test(trimmed) ? await em.findOne(WorkType, { id: Number(trimmed) }) : null;
  const type = byId ?? (await em.findOne(WorkType, { nameKey: trimmed.toLowerCase() }));
  if (!type) throw DomainError.notFound('Work type', trimmed);
  return { id: type.id, name: type.name };
}

/**
 * `GET /rest/admin/project/{p}/timetracking/worktype` (READ_PROJECT): the work types a project's
 * items may use. Work types are shared: every one is available in every project.
 */
export async function listProjectWorkTypes(em: Em, actor: Actor, project: string): Promise<WorkTypeView[]> {
  await getReadableProject(em, actor, project);
  return listWorkTypes(em);
}

/**
 * `PUT /rest/admin/project/{p}/timetracking/worktype/{type}` (UPDATE_PROJECT in the project): the
 * original attached a work type to a project. Here every type is already available everywhere,
 * so this checks the right and the type and changes nothing.
 */
export async function attachProjectWorkType(
  em: Em,
  actor: Actor,
  project: string,
  ref: string,
): Promise<WorkTypeView> {
  const p = await getReadableProject(em, actor, project);
  requirePermission(actor, 'UPDATE_PROJECT', p.id);
  return getWorkType(em, ref);
}

export async function deleteWorkType(em: Em, actor: Actor, name: string): Promise<void> {
  requirePermission(actor, 'UPDATE_PROJECT', undefined, 'administer work types (UPDATE_PROJECT globally)');
  const type = await getWorkType(em, name);
  const removed = await em.nativeDelete(WorkType, { id: type.id });
  if (removed === 0) throw DomainError.notFound('Work type', name);
}

export type ProjectTimeTrackingView = {
  enabled: boolean;
  estimation: string | null;
  spentTime: string | null;
};

/** A project's time tracking settings (READ_PROJECT); a project never configured is disabled. */
export async function getProjectTimeTracking(
  em: Em,
  actor: Actor,
  shortName: string,
): Promise<ProjectTimeTrackingView> {
  const project = await getReadableProject(em, actor, shortName);
  const row = await em.findOne(ProjectTimeTracking, { project: project.id });
  return {
    enabled: toBool(row?.enabled ?? false),
    estimation: row?.estimateField ?? null,
    spentTime: row?.timeSpentField ?? null,
  };
}

export async function setProjectTimeTracking(
  em: Em,
  actor: Actor,
  shortName: string,
  input: { enabled?: boolean | undefined; estimation?: string | undefined; spentTime?: string | undefined },
): Promise<ProjectTimeTrackingView> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(
    actor,
    'UPDATE_PROJECT',
    project.id,
    `configure time tracking of project [ ${project.shortName} ]`,
  );
  const values = {
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(input.estimation !== undefined
      ? { estimateField: oneLine(input.estimation).trim().slice(0, 100) || null }
      : {}),
    ...(input.spentTime !== undefined
      ? { timeSpentField: oneLine(input.spentTime).trim().slice(0, 100) || null }
      : {}),
  };
  await em
    .createQueryBuilder(ProjectTimeTracking)
    .insert({ project: project.id, enabled: false, estimateField: null, timeSpentField: null, ...values })
    .onConflict('project')
    .merge(Object.keys(values).length ? (Object.keys(values) as (keyof typeof values)[]) : ['enabled'])
    .execute();
  return getProjectTimeTracking(em, actor, shortName);
}

export type TimeSettingsView = { hoursADay: number; daysAWeek: number };

export async function getTimeSettings(em: Em): Promise<TimeSettingsView> {
  const row = await em.findOne(TimeTrackingSettings, { id: 1 });
  return { hoursADay: row?.hoursPerDay ?? 8, daysAWeek: row?.daysPerWeek ?? 5 };
}

/** The installation's working time: LOW_LEVEL_ADMIN. */
export async function setTimeSettings(
  em: Em,
  actor: Actor,
  input: { hoursADay?: number | undefined; daysAWeek?: number | undefined },
): Promise<TimeSettingsView> {
  requirePermission(actor, 'LOW_LEVEL_ADMIN', undefined, 'change the working time (LOW_LEVEL_ADMIN)');
  if (
    input.hoursADay !== undefined &&
    !(Number.isInteger(input.hoursADay) && input.hoursADay >= 1 && input.hoursADay <= 24)
  )
    throw DomainError.invalid('hoursADay', 'must be a whole number from 1 to 24');
  if (
    input.daysAWeek !== undefined &&
    !(Number.isInteger(input.daysAWeek) && input.daysAWeek >= 1 && input.daysAWeek <= 7)
  )
    throw DomainError.invalid('daysAWeek', 'must be a whole number from 1 to 7');
  const current = await getTimeSettings(em);
  const next = {
    hoursPerDay: input.hoursADay ?? current.hoursADay,
    daysPerWeek: input.daysAWeek ?? current.daysAWeek,
  };
  await em
    .createQueryBuilder(TimeTrackingSettings)
    .insert({ id: 1, ...next })
    .onConflict('id')
    .merge(['hoursPerDay', 'daysPerWeek'])
    .execute();
  return getTimeSettings(em);
}
