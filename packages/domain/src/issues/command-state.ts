import { entryOf } from '../collections/map-entry.js';
import type { FieldKind } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor, readEpochs } from '../orm/epoch-cache.js';
import { toBool } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import { readRows } from '../orm/statements.js';
import { BUNDLE_MEMBERS } from '../projects/bundle-usage.js';
import type { IssueRef } from './find-issues.js';
import type { WorkItemInput } from './work-items/work-items.js';

export type FieldValueDef = { id: number; name: string; resolved: boolean };

/** A project field joined with one value of its bundle (none: the value columns are null), as read from SQL. */
export type FieldValueRow = {
  id: number;
  name: string;
  kind: FieldKind;
  multi: unknown;
  can_be_empty: unknown;
  empty_text: string | null;
  value_id: number | null;
  value_name: string | null;
  value_key: string | null;
  resolved: unknown;
  /** Whether the field's prototype is private (absent: read by a statement that does not care). */
  is_private?: unknown;
};

/** A field's definition from its first row, values still empty (`addFieldValueRow` fills them). */
export const fieldDefOf = (row: FieldValueRow, projectId: number): FieldDef => ({
  id: Number(row.id),
  projectId,
  name: row.name,
  kind: row.kind,
  multi: toBool(row.multi),
  canBeEmpty: toBool(row.can_be_empty),
  emptyText: row.empty_text,
  isPrivate: toBool(row.is_private ?? false),
  values: new Map(),
  valuesById: new Map(),
});

/** Adds the row's value, if it has one, to the field's values by name key and by id. */
export function addFieldValueRow(field: FieldDef, row: FieldValueRow): void {
  if (row.value_id === null || row.value_name === null || row.value_key === null) return;
  const value = { id: Number(row.value_id), name: row.value_name, resolved: toBool(row.resolved) };
  field.values.set(row.value_key, value);
  field.valuesById.set(value.id, value);
}

export type FieldDef = {
  id: number;
  projectId: number;
  name: string;
  kind: FieldKind;
  multi: boolean;
  canBeEmpty: boolean;
  emptyText: string | null;
  /** A private field: read with PRIVATE_READ_ISSUE, set with PRIVATE_UPDATE_ISSUE. */
  isPrivate: boolean;
  /** By lower-cased name. */
  values: Map<string, FieldValueDef>;
  valuesById: Map<number, FieldValueDef>;
};

/** What occupies one slot of a field on an issue: a value id, a user id, or a simple field's text or number. */
export type SlotValue = {
  value: number | null;
  user: number | null;
  text: string | null;
  number: number | null;
};
export type FieldSlots = Map<number, SlotValue>;

/** An issue's relations as loaded (`initial`) and as the command leaves them (`current`). */
export type IssueState = {
  ref: IssueRef;
  initial: Map<number, FieldSlots>;
  current: Map<number, FieldSlots>;
  tags: { initial: Set<number>; current: Set<number> };
  stars: { initial: Set<number>; current: Set<number> };
  votes: { initial: Set<number>; current: Set<number> };
  comment: string | null;
  /** The command deletes the issue (`delete`): nothing else of it is written. */
  deleted: boolean;
  /** Work items the command adds (`work 2h`). */
  workItems: WorkItemInput[];
  /** The group the issue is visible to (`permittedGroup`): null, every reader of its project. */
  visibility: { initial: number | null; current: number | null };
};

export type LinkKey = `${number}:${number}:${number}`;
export const linkKey = (typeId: number, source: number, target: number): LinkKey =>
  `${typeId}:${source}:${target}`;

export type CommandState = {
  issues: IssueState[];
  /** Fields per project, by lower-cased name. */
  fields: Map<number, Map<string, FieldDef>>;
  /** The users a user field may take, by field id (its bundle's users). */
  fieldUsers: Map<number, Set<number>>;
  /** Links touching any context issue: key → row id (null for links added by this command). */
  links: { initial: Map<LinkKey, number>; current: Set<LinkKey> };
};

export const copySlots = (fields: Map<number, FieldSlots>) =>
  new Map([...fields].map(([id, slots]) => [id, new Map(slots)]));

type ProjectFields = {
  /** By lower-cased name. */
  fields: Map<string, FieldDef>;
  /** The users a user field may take, by field id (its bundle's users). */
  fieldUsers: Map<number, Set<number>>;
};

const projectFieldsCache = epochCacheFor<ProjectFields>((p) => {
  let n = 0;
  for (const field of p.fields.values()) n += field.values.size + 1;
  for (const users of p.fieldUsers.values()) n += users.size;
  return 512 + 128 * n;
});

/**
 * The fields of the issues' projects with their values and permitted users: what every
 * command reads before it changes anything. Remembered per project under the epochs (as
 * `remembered` does: fields, values and bundle members bump the vocabulary epoch); read-only.
 */
export async function fieldDefinitions(
  em: Em,
  issues: readonly IssueRef[],
): Promise<Pick<CommandState, 'fields' | 'fieldUsers'>> {
  const fields = new Map<number, Map<string, FieldDef>>();
  const fieldUsers = new Map<number, Set<number>>();
  const cache = projectFieldsCache(em);
  // Inside a transaction nothing is kept (see `remembered`); the epochs are read once.
  const keep = !em.getTransactionContext();
  const epoch = await readEpochs(em);
  for (const projectId of new Set(issues.map((i) => i.projectId))) {
    const key = `fields|${projectId}`;
    let project = cache.get(key, epoch, Number.POSITIVE_INFINITY);
    if (!project) {
      const builtAt = Date.now();
      project = await loadProjectFields(em, projectId);
      if (keep) cache.set(key, epoch, builtAt, project);
    }
    fields.set(projectId, project.fields);
    for (const [fieldId, users] of project.fieldUsers) fieldUsers.set(fieldId, users);
  }
  return { fields, fieldUsers };
}

async function loadProjectFields(em: Em, projectId: number): Promise<ProjectFields> {
  const fields = new Map<string, FieldDef>();
  for (const row of await readRows<FieldValueRow & { name_key: string }>(
    em,
    'select pf.id, pf.name, pf.name_key, pf.kind, pf.multi, pf.can_be_empty, pf.empty_text, cf.is_private, ' +
      'fv.id as value_id, fv.name as value_name, fv.name_key as value_key, fv.resolved ' +
      'from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id ' +
      'left join field_values fv on fv.bundle_id = pf.bundle_id where pf.project_id = ?',
    [projectId],
  )) {
    let field = fields.get(row.name_key);
    if (!field) {
      field = fieldDefOf(row, projectId);
      fields.set(row.name_key, field);
    }
    addFieldValueRow(field, row);
  }
  const fieldUsers = new Map<number, Set<number>>();
  for (const row of await readRows<{ field_id: number; user_id: number }>(
    em,
    `select pf.id as field_id, bu.user_id from project_fields pf join (${BUNDLE_MEMBERS}) bu on bu.bundle_id = pf.bundle_id ` +
      `where pf.kind = 'user' and pf.project_id = ?`,
    [projectId],
  )) {
    entryOf(fieldUsers, Number(row.field_id), () => new Set<number>()).add(Number(row.user_id));
  }
  return { fields, fieldUsers };
}

/** Loads everything a command may change on `issues`, with a fixed number of queries. */
export async function loadCommandState(em: Em, issues: IssueRef[]): Promise<CommandState> {
  const issueIds = issues.map((i) => i.id);
  const inIssues = placeholders(issueIds);
  const { fields, fieldUsers } = await fieldDefinitions(em, issues);

  const states = new Map<number, IssueState>(
    issues.map((ref) => [
      ref.id,
      {
        ref,
        initial: new Map(),
        current: new Map(),
        tags: { initial: new Set(), current: new Set() },
        stars: { initial: new Set(), current: new Set() },
        votes: { initial: new Set(), current: new Set() },
        comment: null,
        deleted: false,
        workItems: [],
        visibility: { initial: ref.permittedGroupId, current: ref.permittedGroupId },
      },
    ]),
  );
  for (const row of await readRows<{
    issue_id: number;
    field_id: number;
    slot: number;
    value_id: number | null;
    user_id: number | null;
    text: string | null;
    number: unknown;
  }>(
    em,
    `select issue_id, field_id, slot, value_id, user_id, text, number from issue_field_values where issue_id in (${inIssues})`,
    issueIds,
  )) {
    const state = states.get(Number(row.issue_id));
    if (!state) continue;
    entryOf(state.initial, Number(row.field_id), (): FieldSlots => new Map()).set(Number(row.slot), {
      value: row.value_id === null ? null : Number(row.value_id),
      user: row.user_id === null ? null : Number(row.user_id),
      text: row.text ?? null,
      number: row.number === null || row.number === undefined ? null : Number(row.number),
    });
  }
  const loadSet = async (
    sql: string,
    pick: (s: IssueState) => { initial: Set<number>; current: Set<number> },
  ) => {
    for (const row of await readRows<{ issue_id: number; ref: number }>(em, sql, issueIds)) {
      const state = states.get(Number(row.issue_id));
      if (state) pick(state).initial.add(Number(row.ref));
    }
  };
  await loadSet(
    `select issue_id, tag_id as ref from issue_tags where issue_id in (${inIssues})`,
    (s) => s.tags,
  );
  await loadSet(
    `select issue_id, user_id as ref from issue_stars where issue_id in (${inIssues})`,
    (s) => s.stars,
  );
  await loadSet(
    `select issue_id, user_id as ref from issue_votes where issue_id in (${inIssues})`,
    (s) => s.votes,
  );
  for (const state of states.values()) {
    state.current = copySlots(state.initial);
    for (const set of [state.tags, state.stars, state.votes]) set.current = new Set(set.initial);
  }

  return { issues: [...states.values()], fields, fieldUsers, links: await loadLinks(em, issueIds) };
}

/** The links touching any of the issues, as loaded (`initial`, with row ids) and as a command leaves them. */
export async function loadLinks(em: Em, issueIds: readonly number[]): Promise<CommandState['links']> {
  const inIssues = placeholders(issueIds);
  const linkRows = await readRows<{ id: number; type_id: number; source_id: number; target_id: number }>(
    em,
    `select id, type_id, source_id, target_id from issue_links where source_id in (${inIssues}) or target_id in (${inIssues})`,
    [...issueIds, ...issueIds],
  );
  const initial = new Map<LinkKey, number>(
    linkRows.map((r) => [linkKey(Number(r.type_id), Number(r.source_id), Number(r.target_id)), Number(r.id)]),
  );
  return { initial, current: new Set(initial.keys()) };
}
