import type { PermissionKey } from '@trackline/contracts';
import { sql } from 'kysely';
import { type Actor, can, projectsWith } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import { entryOf } from '../collections/map-entry.js';
import { capabilitiesOf } from '../commands/requirements.js';
import type { CommandVocabulary, VocabularyField, VocabularyValue } from '../commands/vocabulary.js';
import { canUseGroup } from '../groups/group-names.js';
import { tables } from '../model/database.js';
import type { FieldKind } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor, remembered } from '../orm/epoch-cache.js';
import { toBool } from '../orm/row-values.js';
import { type Param, perLength, prepareRead, readQuery, sqlCondition } from '../orm/typed-query.js';
import { bundleMembers } from '../projects/bundle-usage.js';
import { parseAliases } from './fields/field-aliases.js';
import { fieldsWithBundleValues } from './fields/field-rows.js';
import { findReadableIssues } from './find-issues.js';
import { formatIssueId } from './issue-id.js';

/** How many readable issue ids the vocabulary offers for link suggestions. */
export const VOCABULARY_ISSUE_SAMPLE = 50;

type FieldRow = {
  project_id: number;
  name: string;
  name_key: string;
  kind: FieldKind;
  multi: unknown;
  can_be_empty: unknown;
  empty_text: string | null;
  value_name: string | null;
  resolved: unknown;
  is_private: unknown;
  aliases: string | null;
};
type UserRow = { project_id: number | null; field_key: string | null; login: string; full_name: string };

type ProjectFields = Map<string, VocabularyField>;

type ProjectIds = Param<{ projectIds: readonly number[] }>;

const projectIdsQuery = prepareRead(() => tables.selectFrom('projects').select('id').orderBy('id'));

/** The fields of projects with their bundles' values, per number of projects. */
const fieldsQuery = perLength((count) =>
  prepareRead((param: ProjectIds) =>
    fieldsWithBundleValues()
      .select([
        'pf.project_id',
        'pf.name',
        'pf.name_key',
        'pf.kind',
        'pf.multi',
        'pf.can_be_empty',
        'pf.empty_text',
        'fv.name as value_name',
        'fv.resolved',
        'cf.is_private',
        'cf.aliases',
      ])
      .where('pf.project_id', 'in', param.list('projectIds', count))
      .orderBy('pf.project_id')
      .orderBy('pf.ordinal')
      .orderBy('pf.id')
      .orderBy('fv.ordinal')
      .orderBy('fv.id'),
  ),
);

/**
 * The actor (project and field null), then the users of the projects' user fields (their
 * bundles' users and groups' members), by login; per number of projects (none: the actor alone).
 */
const usersQuery = perLength((count) =>
  prepareRead((param: Param<{ userId: number; projectIds: readonly number[] }>) => {
    const actor = tables
      .selectFrom('users')
      .select([
        sql<number | null>`null`.as('project_id'),
        sql<string | null>`null`.as('field_key'),
        'login',
        'full_name',
      ])
      .where('id', '=', param('userId'));
    const all =
      count === 0
        ? actor
        : actor.unionAll(
            tables
              .selectFrom('project_fields as pf')
              .innerJoin(bundleMembers().as('bu'), 'bu.bundle_id', 'pf.bundle_id')
              .innerJoin('users as u', 'u.id', 'bu.user_id')
              .select(['pf.project_id', 'pf.name_key as field_key', 'u.login', 'u.full_name'])
              .where('pf.kind', '=', sql.lit('user'))
              .where('pf.project_id', 'in', param.list('projectIds', count)),
          );
    return all.orderBy('login');
  }),
);

/** How many of the projects track time, per number of projects. */
const trackingQuery = perLength((count) =>
  prepareRead((param: Param<{ enabled: boolean; projectIds: readonly number[] }>) =>
    tables
      .selectFrom('project_time_tracking')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('enabled', '=', param('enabled'))
      .where('project_id', 'in', param.list('projectIds', count)),
  ),
);

/** Per project: its fields by lower-cased name, with bundle values or (for user fields) the bundle's users. */
function fieldsByProject(fieldRows: FieldRow[], userRows: UserRow[]): Map<number, ProjectFields> {
  const bundleUsers = new Map<string, VocabularyValue[]>();
  for (const u of userRows) {
    if (u.project_id === null) continue;
    entryOf(bundleUsers, `${Number(u.project_id)}:${u.field_key}`, (): VocabularyValue[] => []).push({
      name: u.login,
      description: u.full_name,
    });
  }
  const result = new Map<number, ProjectFields>();
  for (const row of fieldRows) {
    const projectId = Number(row.project_id);
    const fields = entryOf(result, projectId, () => new Map<string, VocabularyField>());
    let field = fields.get(row.name_key);
    if (!field) {
      field = {
        name: row.name,
        kind: row.kind,
        multi: toBool(row.multi),
        values: row.kind === 'user' ? [...(bundleUsers.get(`${projectId}:${row.name_key}`) ?? [])] : [],
        canBeEmpty: toBool(row.can_be_empty),
        ...(row.empty_text ? { emptyText: row.empty_text } : {}),
        ...(row.aliases ? { aliases: parseAliases(row.aliases) } : {}),
      };
      fields.set(row.name_key, field);
    }
    if (row.value_name !== null) {
      field.values.push(
        row.kind === 'state'
          ? { name: row.value_name, resolved: toBool(row.resolved) }
          : { name: row.value_name },
      );
    }
  }
  return result;
}

const valueKey = (v: VocabularyValue) => v.name.toLowerCase();

/** Fields present in every project, with the values every project has (a command must fit all issues). */
function intersect(all: ProjectFields[]): VocabularyField[] {
  const [first, ...rest] = all;
  if (!first) return [];
  return [...first].flatMap(([key, field]) => {
    const others = rest.map((fields) => fields.get(key));
    if (others.some((f) => !f || f.kind !== field.kind || f.multi !== field.multi)) return [];
    const values = field.values.filter((v) =>
      others.every((f) => f?.values.some((o) => valueKey(o) === valueKey(v))),
    );
    return [{ ...field, values, canBeEmpty: field.canBeEmpty && others.every((f) => f?.canBeEmpty) }];
  });
}

/** Fields of any project, with the values of all (no issue context: anything might apply). */
function unite(all: ProjectFields[]): VocabularyField[] {
  const merged = new Map<string, VocabularyField>();
  for (const fields of all) {
    for (const [key, field] of fields) {
      const known = merged.get(key);
      if (!known) {
        merged.set(key, { ...field, values: [...field.values] });
        continue;
      }
      for (const v of field.values) {
        if (!known.values.some((k) => valueKey(k) === valueKey(v))) known.values.push(v);
      }
    }
  }
  return [...merged.values()];
}

/**
 * What the command language may refer to for the actor and the context issues (null: no
 * issue context, every project the actor may update). Only what the actor could apply
 * appears (`can`, from commands/requirements.ts): fields only with UPDATE_ISSUE in every context
 * project, link types only with LINK_ISSUE... Runs on every keystroke: six small raw queries, no entities.
 */
export async function buildVocabulary(
  em: Em,
  actor: Actor,
  contextIssueIds: readonly string[] | null,
  options: {
    /**
     * Execution's vocabulary is built with every permission (a part the actor may not apply is
     * then a 403, not an unknown word); private fields still follow the real actor: they are
     * words only for who may read them (setting one is checked per part).
     */
    readsPrivateAs?: Actor;
  } = {},
): Promise<CommandVocabulary> {
  let projectIds: number[];
  let all: (permission: PermissionKey) => boolean;
  /** The groups the context issues are visible to: named on them, so `remove visible to` may name them. */
  const contextGroups = new Set<number>();
  if (contextIssueIds === null) {
    const updatable = projectsWith(actor, 'UPDATE_ISSUE');
    projectIds =
      updatable === 'all'
        ? (await projectIdsQuery.all(em, {})).map((r) => Number(r.id))
        : [...updatable].sort((a, b) => a - b);
    // Without issues, a kind of command is possible when some project allows it.
    const anywhere = (permission: PermissionKey) => {
      const ids = projectsWith(actor, permission);
      return ids === 'all' || ids.length > 0;
    };
    all = anywhere;
  } else {
    const issues = await findReadableIssues(em, actor, contextIssueIds);
    for (const issue of issues)
      if (issue.permittedGroupId !== null) contextGroups.add(issue.permittedGroupId);
    projectIds = [...new Set(issues.map((i) => i.projectId))].sort((a, b) => a - b);
    all = (permission) => projectIds.length > 0 && projectIds.every((id) => can(actor, permission, id));
  }
  const allowed = capabilitiesOf(actor.type === 'guest', all);

  const fieldProjects = allowed.update ? projectIds : [];
  const fieldRows: FieldRow[] = fieldProjects.length
    ? await fieldsQuery(fieldProjects.length).all(em, { projectIds: fieldProjects })
    : [];
  // A private field is in the vocabulary only for who may read it (and, for suggestions, set
  // it) there: for anyone else it is no word of the language at all, like a field that does not exist.
  const reader = options.readsPrivateAs ?? actor;
  const settable = fieldRows.filter((r) => {
    if (!toBool(r.is_private)) return true;
    const projectId = Number(r.project_id);
    if (!can(reader, 'PRIVATE_READ_ISSUE', projectId)) return false;
    return options.readsPrivateAs !== undefined || can(actor, 'PRIVATE_UPDATE_ISSUE', projectId);
  });
  const userRows: UserRow[] = await usersQuery(fieldProjects.length).all(em, {
    userId: actor.userId,
    projectIds: fieldProjects,
  });
  const perProject = fieldsByProject(settable, userRows);
  const projectFields = fieldProjects.flatMap((id) => perProject.get(id) ?? []);
  const fields = contextIssueIds === null ? unite(projectFields) : intersect(projectFields);

  const users = new Map<string, { login: string; fullName: string }>();
  for (const u of userRows) users.set(u.login.toLowerCase(), { login: u.login, fullName: u.full_name });

  const shared = await sharedParts(em, actor);

  return {
    me: actor.login,
    fields,
    users: [...users.values()],
    tags: allowed.tag ? shared.tags : [],
    // Only the groups the (real) actor may name: others are no word of the language, exactly like
    // a group that does not exist, so `visible to` neither offers nor tells them.
    groups: allowed.visibility
      ? shared.groups
          .filter((g) => canUseGroup(reader, g.id, projectIds) || contextGroups.has(g.id))
          .map((g) => ({ name: g.name }))
      : [],
    workTypes: allowed.work ? shared.workTypes : [],
    timeTracking: allowed.work && (await tracksTimeIn(em, projectIds)),
    linkTypes: allowed.link ? shared.linkTypes : [],
    issueIds: allowed.link ? shared.issueIds : [],
    can: allowed,
  };
}

/** Whether every one of the projects tracks time (none: false). */
async function tracksTimeIn(em: Em, projectIds: readonly number[]): Promise<boolean> {
  if (projectIds.length === 0) return false;
  const rows = await trackingQuery(projectIds.length).all(em, { enabled: true, projectIds });
  return Number(rows[0]?.n ?? 0) === projectIds.length;
}

/** What a vocabulary holds whatever its context projects: the actor's tags, the link types, linkable issues. */
type SharedParts = Pick<CommandVocabulary, 'tags' | 'linkTypes' | 'issueIds' | 'workTypes'> & {
  /** Every group: the vocabulary keeps those the actor may name (`canUseGroup`). */
  groups: { id: number; name: string }[];
};

const tagNamesQuery = prepareRead((param: Param<{ userId: number }>) =>
  tables
    .selectFrom('tags')
    .select((eb) => eb.fn.min('name').as('name'))
    .where((eb) => eb.or([eb('owner_id', '=', param('userId')), eb('shared', '=', sql.lit(true))]))
    .groupBy('name_key')
    .orderBy('name_key'),
);
const linkTypesQuery = prepareRead(() =>
  tables
    .selectFrom('issue_link_types')
    .select(['name', 'outward_name', 'inward_name', 'directed'])
    .orderBy('name_key'),
);
const groupNamesQuery = prepareRead(() =>
  tables.selectFrom('user_groups').select(['id', 'name']).orderBy('name_key'),
);
const workTypeNamesQuery = prepareRead(() =>
  tables.selectFrom('work_types').select('name').orderBy('name_key'),
);

const sharedPartsCache = epochCacheFor<SharedParts>(
  (p) =>
    512 +
    64 * (p.tags.length + p.linkTypes.length + p.issueIds.length + p.groups.length + p.workTypes.length),
);
/**
 * The sample of linkable issues follows the issues' high-water mark (a new issue is in it at once);
 * an older issue deleted or hidden since stays in it at most this long (a hint: applying re-checks).
 */
const SAMPLE_MAX_AGE_MS = 60_000;

/**
 * The parts of a vocabulary that do not depend on its context, remembered per actor and read
 * scope under the epochs: a caller's first keystroke in another project then reads only that
 * project's fields and users.
 */
function sharedParts(em: Em, actor: Actor): Promise<SharedParts> {
  const scope = readableIssuesSql(actor);
  // The condition's parameters name everything it depends on (projects, user, groups).
  const key = `shared|${actor.userId}|${scope === 'none' ? 'none' : `${scope.sql}|${scope.params.join(',')}`}`;
  return remembered(
    sharedPartsCache(em),
    em,
    key,
    SAMPLE_MAX_AGE_MS,
    async () => {
      const tags = await tagNamesQuery.all(em, { userId: actor.userId });
      const linkTypes = await linkTypesQuery.all(em, {});
      // Compiled per build (remembered under the epochs): the scope's condition varies per actor.
      const issueIds =
        scope === 'none'
          ? []
          : await readQuery(
              em,
              tables
                .selectFrom('issues as i')
                .innerJoin('projects as p', 'p.id', 'i.project_id')
                .select(['p.short_name', 'i.number_in_project'])
                .where(sqlCondition(scope))
                .orderBy('i.id', 'desc')
                .limit(sql.lit(VOCABULARY_ISSUE_SAMPLE)),
            );
      const groups = await groupNamesQuery.all(em, {});
      const workTypes = await workTypeNamesQuery.all(em, {});
      return {
        tags: tags.map((t) => ({ name: t.name })),
        groups: groups.map((g) => ({ id: Number(g.id), name: g.name })),
        workTypes: workTypes.map((t) => ({ name: t.name })),
        linkTypes: linkTypes.map((t) => ({
          name: t.name,
          outwardName: t.outward_name,
          inwardName: t.inward_name,
          directed: toBool(t.directed),
        })),
        issueIds: issueIds.map((r) => formatIssueId(r.short_name, Number(r.number_in_project))),
      };
    },
    { issueMark: true },
  );
}
