import { sql } from 'kysely';
import { entryOf } from '../collections/map-entry.js';
import { tables } from '../model/database.js';
import type { FieldKind } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor, readEpochs } from '../orm/epoch-cache.js';
import { dialectOfEm } from '../orm/open-orm.js';
import { toBool } from '../orm/row-values.js';
import { type Param, perLength, prepareRead } from '../orm/typed-query.js';
import { bundleMembers } from '../projects/bundle-usage.js';
import { fieldsWithBundleValues } from './fields/field-rows.js';
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

/** A project's fields, each joined with its bundle's values (none: the value columns are null). */
const projectFieldsQuery = prepareRead((param: Param<{ projectId: number }>) =>
  fieldsWithBundleValues()
    .select([
      'pf.id',
      'pf.name',
      'pf.name_key',
      'pf.kind',
      'pf.multi',
      'pf.can_be_empty',
      'pf.empty_text',
      'cf.is_private',
      'fv.id as value_id',
      'fv.name as value_name',
      'fv.name_key as value_key',
      'fv.resolved',
    ])
    .where('pf.project_id', '=', param('projectId')),
);
/** The users each user field of a project may take (its bundle's users and groups' members). */
const projectFieldUsersQuery = prepareRead((param: Param<{ projectId: number }>) =>
  tables
    .selectFrom('project_fields as pf')
    .innerJoin(bundleMembers().as('bu'), 'bu.bundle_id', 'pf.bundle_id')
    .select(['pf.id as field_id', 'bu.user_id'])
    .where('pf.kind', '=', sql.lit('user'))
    .where('pf.project_id', '=', param('projectId')),
);

async function loadProjectFields(em: Em, projectId: number): Promise<ProjectFields> {
  const fields = new Map<string, FieldDef>();
  for (const row of await projectFieldsQuery.all(em, { projectId })) {
    let field = fields.get(row.name_key);
    if (!field) {
      field = fieldDefOf(row, projectId);
      fields.set(row.name_key, field);
    }
    addFieldValueRow(field, row);
  }
  const fieldUsers = new Map<number, Set<number>>();
  for (const row of await projectFieldUsersQuery.all(em, { projectId })) {
    entryOf(fieldUsers, Number(row.field_id), () => new Set<number>()).add(Number(row.user_id));
  }
  return { fields, fieldUsers };
}

type Ids = Param<{ ids: readonly number[] }>;
/** The field slots of issues, per number of issues. */
const slotsQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables
      .selectFrom('issue_field_values')
      .select(['issue_id', 'field_id', 'slot', 'value_id', 'user_id', 'text', 'number'])
      .where('issue_id', 'in', param.list('ids', count)),
  ),
);
/** The tags, stars and votes of issues (`ref`: the tag or user), per number of issues. */
const tagsQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables
      .selectFrom('issue_tags')
      .select(['issue_id', 'tag_id as ref'])
      .where('issue_id', 'in', param.list('ids', count)),
  ),
);
const starsQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables
      .selectFrom('issue_stars')
      .select(['issue_id', 'user_id as ref'])
      .where('issue_id', 'in', param.list('ids', count)),
  ),
);
const votesQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables
      .selectFrom('issue_votes')
      .select(['issue_id', 'user_id as ref'])
      .where('issue_id', 'in', param.list('ids', count)),
  ),
);
/** The five reads above as one statement on PostgreSQL (`loadStateRows`), per number of issues. */
const stateQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables.selectNoFrom((eb) => [
      eb
        .selectFrom('issue_field_values')
        .select(
          sql<unknown>`json_agg(json_build_array(issue_id, field_id, slot, value_id, user_id, text, number))`.as(
            'j',
          ),
        )
        .where('issue_id', 'in', param.list('ids', count))
        .as('slots'),
      eb
        .selectFrom('issue_tags')
        .select(sql<unknown>`json_agg(json_build_array(issue_id, tag_id))`.as('j'))
        .where('issue_id', 'in', param.list('ids', count))
        .as('tags'),
      eb
        .selectFrom('issue_stars')
        .select(sql<unknown>`json_agg(json_build_array(issue_id, user_id))`.as('j'))
        .where('issue_id', 'in', param.list('ids', count))
        .as('stars'),
      eb
        .selectFrom('issue_votes')
        .select(sql<unknown>`json_agg(json_build_array(issue_id, user_id))`.as('j'))
        .where('issue_id', 'in', param.list('ids', count))
        .as('votes'),
      eb
        .selectFrom('issue_links')
        .select(sql<unknown>`json_agg(json_build_array(id, type_id, source_id, target_id))`.as('j'))
        .where((w) =>
          w.or([
            w('source_id', 'in', param.list('ids', count)),
            w('target_id', 'in', param.list('ids', count)),
          ]),
        )
        .as('links'),
    ]),
  ),
);
/** The links touching any of the issues, per number of issues. */
const linksQuery = perLength((count) =>
  prepareRead((param: Ids) =>
    tables
      .selectFrom('issue_links')
      .select(['id', 'type_id', 'source_id', 'target_id'])
      .where((eb) =>
        eb.or([
          eb('source_id', 'in', param.list('ids', count)),
          eb('target_id', 'in', param.list('ids', count)),
        ]),
      ),
  ),
);

/** Loads everything a command may change on `issues`, with a fixed number of queries. */
export async function loadCommandState(em: Em, issues: IssueRef[]): Promise<CommandState> {
  const issueIds = issues.map((i) => i.id);
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
  const loaded = await loadStateRows(em, issueIds);
  for (const row of loaded.slots) {
    const state = states.get(Number(row.issue_id));
    if (!state) continue;
    entryOf(state.initial, Number(row.field_id), (): FieldSlots => new Map()).set(Number(row.slot), {
      value: row.value_id === null ? null : Number(row.value_id),
      user: row.user_id === null ? null : Number(row.user_id),
      text: row.text ?? null,
      number: row.number === null || row.number === undefined ? null : Number(row.number),
    });
  }
  const loadSet = (
    rows: readonly RefRow[],
    pick: (s: IssueState) => { initial: Set<number>; current: Set<number> },
  ) => {
    for (const row of rows) {
      const state = states.get(Number(row.issue_id));
      if (state) pick(state).initial.add(Number(row.ref));
    }
  };
  loadSet(loaded.tags, (s) => s.tags);
  loadSet(loaded.stars, (s) => s.stars);
  loadSet(loaded.votes, (s) => s.votes);
  for (const state of states.values()) {
    state.current = copySlots(state.initial);
    for (const set of [state.tags, state.stars, state.votes]) set.current = new Set(set.initial);
  }

  return { issues: [...states.values()], fields, fieldUsers, links: linksOf(loaded.links) };
}

type SlotRow = {
  issue_id: unknown;
  field_id: unknown;
  slot: unknown;
  value_id: unknown;
  user_id: unknown;
  text: string | null;
  number: unknown;
};
type RefRow = { issue_id: unknown; ref: unknown };
type LinkRow = { id: unknown; type_id: unknown; source_id: unknown; target_id: unknown };
type StateRows = { slots: SlotRow[]; tags: RefRow[]; stars: RefRow[]; votes: RefRow[]; links: LinkRow[] };

/**
 * The issues' stored values, tags, stars, votes and links. On PostgreSQL one statement (each
 * kind a JSON array): a command reads them inside its transaction, where every statement is a
 * round trip the transaction's connection waits for and a text the backend parses and plans
 * (the ORM inlines the parameters there), five of them on every command. SQLite: five prepared
 * statements, function calls in the process.
 */
async function loadStateRows(em: Em, issueIds: readonly number[]): Promise<StateRows> {
  const ids = { ids: [...issueIds] };
  const count = issueIds.length;
  if (dialectOfEm(em) !== 'postgresql') {
    return {
      slots: await slotsQuery(count).all(em, ids),
      tags: await tagsQuery(count).all(em, ids),
      stars: await starsQuery(count).all(em, ids),
      votes: await votesQuery(count).all(em, ids),
      links: await linksQuery(count).all(em, ids),
    };
  }
  const row = await stateQuery(count).first(em, ids);
  const list = (value: unknown): unknown[][] =>
    (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as unknown[][];
  const refs = (value: unknown): RefRow[] => list(value).map(([issue_id, ref]) => ({ issue_id, ref }));
  return {
    slots: list(row?.slots).map(([issue_id, field_id, slot, value_id, user_id, text, number]) => ({
      issue_id,
      field_id,
      slot,
      value_id,
      user_id,
      text: (text ?? null) as string | null,
      number,
    })),
    tags: refs(row?.tags),
    stars: refs(row?.stars),
    votes: refs(row?.votes),
    links: list(row?.links).map(([id, type_id, source_id, target_id]) => ({
      id,
      type_id,
      source_id,
      target_id,
    })),
  };
}

const linksOf = (linkRows: readonly LinkRow[]): CommandState['links'] => {
  const initial = new Map<LinkKey, number>(
    linkRows.map((r) => [linkKey(Number(r.type_id), Number(r.source_id), Number(r.target_id)), Number(r.id)]),
  );
  return { initial, current: new Set(initial.keys()) };
};

/** The links touching any of the issues, as loaded (`initial`, with row ids) and as a command leaves them. */
export async function loadLinks(em: Em, issueIds: readonly number[]): Promise<CommandState['links']> {
  return linksOf(await linksQuery(issueIds.length).all(em, { ids: issueIds }));
}
