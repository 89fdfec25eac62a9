import type { PermissionKey } from '@trackline/contracts';
import { type Actor, can, projectsWith } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import { entryOf } from '../collections/map-entry.js';
import { capabilitiesOf } from '../commands/requirements.js';
import type { CommandVocabulary, VocabularyField, VocabularyValue } from '../commands/vocabulary.js';
import type { FieldKind } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor, remembered } from '../orm/epoch-cache.js';
import { toBool } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import { readRows } from '../orm/statements.js';
import { BUNDLE_MEMBERS } from '../projects/bundle-usage.js';
import { parseAliases } from './fields/field-aliases.js';
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
  if (contextIssueIds === null) {
    const updatable = projectsWith(actor, 'UPDATE_ISSUE');
    projectIds =
      updatable === 'all'
        ? (await readRows<{ id: number }>(em, 'select id from projects order by id')).map((r) => Number(r.id))
        : [...updatable].sort((a, b) => a - b);
    // Without issues, a kind of command is possible when some project allows it.
    const anywhere = (permission: PermissionKey) => {
      const ids = projectsWith(actor, permission);
      return ids === 'all' || ids.length > 0;
    };
    all = anywhere;
  } else {
    const issues = await findReadableIssues(em, actor, contextIssueIds);
    projectIds = [...new Set(issues.map((i) => i.projectId))].sort((a, b) => a - b);
    all = (permission) => projectIds.length > 0 && projectIds.every((id) => can(actor, permission, id));
  }
  const allowed = capabilitiesOf(actor.type === 'guest', all);

  const fieldProjects = allowed.update ? projectIds : [];
  const inProjects = fieldProjects.length ? placeholders(fieldProjects) : '';
  const fieldRows = fieldProjects.length
    ? await readRows<FieldRow>(
        em,
        'select pf.project_id, pf.name, pf.name_key, pf.kind, pf.multi, pf.can_be_empty, pf.empty_text, ' +
          'fv.name as value_name, fv.resolved, cf.is_private, cf.aliases from project_fields pf ' +
          'join custom_fields cf on cf.id = pf.custom_field_id left join field_values fv on fv.bundle_id = pf.bundle_id ' +
          `where pf.project_id in (${inProjects}) order by pf.project_id, pf.ordinal, pf.id, fv.ordinal, fv.id`,
        fieldProjects,
      )
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
  const userRows = await readRows<UserRow>(
    em,
    'select null as project_id, null as field_key, login, full_name from users where id = ?' +
      (fieldProjects.length
        ? ' union all select pf.project_id, pf.name_key as field_key, u.login, u.full_name from project_fields pf ' +
          `join (${BUNDLE_MEMBERS}) bu on bu.bundle_id = pf.bundle_id join users u on u.id = bu.user_id ` +
          `where pf.kind = 'user' and pf.project_id in (${inProjects})`
        : '') +
      ' order by login',
    [actor.userId, ...fieldProjects],
  );
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
    groups: allowed.visibility ? shared.groups : [],
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
  const rows = await readRows<{ n: unknown }>(
    em,
    `select count(*) as n from project_time_tracking where enabled = ? and project_id in (${placeholders(projectIds)})`,
    [true, ...projectIds],
  );
  return Number(rows[0]?.n ?? 0) === projectIds.length;
}

/** What a vocabulary holds whatever its context projects: the actor's tags, the link types, linkable issues. */
type SharedParts = Pick<CommandVocabulary, 'tags' | 'linkTypes' | 'issueIds' | 'groups' | 'workTypes'>;

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
      const tags = await readRows<{ name: string }>(
        em,
        'select min(name) as name from tags where owner_id = ? or shared = true group by name_key order by name_key',
        [actor.userId],
      );
      const linkTypes = await readRows<{
        name: string;
        outward_name: string;
        inward_name: string;
        directed: unknown;
      }>(em, 'select name, outward_name, inward_name, directed from issue_link_types order by name_key');
      const issueIds =
        scope === 'none'
          ? []
          : await readRows<{ short_name: string; number_in_project: number }>(
              em,
              'select p.short_name, i.number_in_project from issues i join projects p on p.id = i.project_id ' +
                `where ${scope.sql} order by i.id desc limit ${VOCABULARY_ISSUE_SAMPLE}`,
              scope.params,
            );
      const groups = await readRows<{ name: string }>(em, 'select name from user_groups order by name_key');
      const workTypes = await readRows<{ name: string }>(em, 'select name from work_types order by name_key');
      return {
        tags: tags.map((t) => ({ name: t.name })),
        groups: groups.map((g) => ({ name: g.name })),
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
