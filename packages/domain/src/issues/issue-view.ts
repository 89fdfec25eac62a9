import { type Actor, can } from '../auth/actor.js';
import { canReadIssue } from '../auth/issue-access.js';
import type { FieldKind } from '../model/field.entity.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor } from '../orm/epoch-cache.js';
import { dialectOfEm } from '../orm/open-orm.js';
import { toBool, toMs, toMsOrNull } from '../orm/row-values.js';
import { placeholders } from '../orm/sql-fragments.js';
import { readRows } from '../orm/statements.js';
import { formatSimpleValue } from '../values/simple-values.js';
import { visibleAttachmentsSql } from './attachments/attachment-visibility.js';
import { visibleCommentsSql } from './comments/comments.js';
import { fieldValueLookups } from './fields/value-lookups.js';
import { type OrderedValueRow, orderFieldValues } from './fields/value-order.js';
import { formatIssueId, parseIssueId } from './issue-id.js';
import { PG_ISSUE_SQL, valueRowsOf } from './issue-view-pg.js';

export type UserRef = { login: string; fullName: string };

export type IssueFieldView = {
  name: string;
  kind: FieldKind;
  multi: boolean;
  /** The text shown when `values` is empty ('Unassigned'...), null for fields that cannot be empty. */
  emptyText: string | null;
  /** Value names (for user fields: logins, with the full name; bundle values with their colour index, if any). */
  values: { name: string; fullName?: string; resolved?: boolean; colorIndex?: number }[];
};

export type IssueLinkView = {
  /** The link type's name ('Depend'). */
  typeName: string;
  /** The phrase as seen from this issue: outward on the source, inward on the target. */
  role: string;
  direction: 'outward' | 'inward' | 'both';
  issue: { id: string; summary: string; resolved: boolean };
};

export type IssueCommentView = {
  id: number;
  author: UserRef;
  text: string;
  created: number;
  updated: number;
};

export type IssueView = {
  /** Readable id, `PRJ-12`. */
  id: string;
  /** Database id (legacy clients compress it into `issueIds`). */
  dbId: number;
  numberInProject: number;
  project: { shortName: string; name: string };
  summary: string;
  description: string;
  reporter: UserRef;
  /** Who changed the issue last (its latest recorded change); absent while none is recorded. */
  updater?: UserRef;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
  resolved: number | null;
  fields: IssueFieldView[];
  /** Tags the viewer can see: own and shared ones. */
  tags: { name: string; owner: string; shared: boolean }[];
  /** How many starred it (watch it): with VIEW_WATCHERS in the project, as the watchers' logins; else undefined. */
  stars: number | undefined;
  starredByMe: boolean;
  votes: number;
  votedByMe: boolean;
  /** Logins of the voters (the legacy `voterName`), with VIEW_VOTERS in the project; else empty. */
  voters?: string[];
  /** Logins of the watchers (stars; the legacy `watcherName`), with VIEW_WATCHERS in the project; else empty. */
  watchers?: string[];
  /** Empty without READ_COMMENT in the project. */
  comments: IssueCommentView[];
  /** Links in both directions, to issues the viewer can read. */
  links: IssueLinkView[];
  /** Attached files (id and file name), when the read model carries them. */
  attachments?: { id: number; name: string }[];
  /** The group the issue is visible to (the original's `permittedGroup`); null: every reader of the project. */
  permittedGroup: string | null;
};

type IssueRow = {
  id: number;
  project_id: number;
  number_in_project: number;
  summary: string;
  description: string;
  created_at: unknown;
  updated_at: unknown;
  resolved_at: unknown;
  short_name: string;
  project_name: string;
  login: string;
  full_name: string;
  updater_login: string | null;
  updater_full_name: string | null;
  stars: unknown;
  my_stars: unknown;
  votes: unknown;
  my_votes: unknown;
  has_attachments: unknown;
  has_tags: unknown;
  has_comments: unknown;
  has_links: unknown;
  reporter_id: number;
  permitted_group_id: number | null;
  permitted_group: string | null;
};

/** A field of a project, in the project's order. */
type FieldDefinitionRow = {
  id: number;
  project_id: number;
  name: string;
  kind: FieldKind;
  multi: unknown;
  empty_text: string | null;
  is_private: unknown;
};

/** One stored value of an issue's field: a bundle value, a user, or a simple text or number. */
type FieldValueRow = {
  issue_id: number;
  field_id: number;
  value_name: string | null;
  resolved: unknown;
  login: string | null;
  full_name: string | null;
  text: string | null;
  number: unknown;
  color_index: unknown;
};

type CommentRow = {
  id: number;
  issue_id: number;
  text: string;
  created_at: unknown;
  updated_at: unknown;
  login: string;
  full_name: string;
};

type LinkRow = {
  source_id: number;
  target_id: number;
  type_name: string;
  outward_name: string;
  inward_name: string;
  directed: unknown;
  id: number;
  project_id: number;
  number_in_project: number;
  summary: string;
  resolved_at: unknown;
  short_name: string;
  reporter_id: number;
  permitted_group_id: number | null;
};

type FieldRows = { definitionRows: FieldDefinitionRow[]; valueRows: FieldValueRow[] };

const group = <T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> => {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
};

/**
 * The read model of issues, in the order of `ids`, with a fixed number of queries for
 * any number of issues. The caller has checked READ_ISSUE; what is viewer-specific
 * (tags, starred/voted by me, comments, linked issues) is filtered here.
 */
export async function loadIssueViews(em: Em, actor: Actor, ids: readonly number[]): Promise<IssueView[]> {
  if (ids.length === 0) return [];
  const views = await loadViews(em, actor, `i.id in (${placeholders(ids)})`, [...ids]);
  const byId = new Map(views.map((v) => [v.dbId, v]));
  return ids.flatMap((id) => {
    const view = byId.get(id);
    return view ? [view] : [];
  });
}

/**
 * One issue by its readable id when the actor may read it (READ_ISSUE in its project, as
 * `findReadableIssues`), else null: the lookup and the issue row are one statement.
 */
export async function loadReadableIssueView(
  em: Em,
  actor: Actor,
  readableId: string,
): Promise<IssueView | null> {
  const key = parseIssueId(readableId);
  if (!key) return null;
  const readable = (row: IssueRow) => canReadIssue(actor, accessFacts(row));
  if (dialectOfEm(em) === 'postgresql') {
    // One statement for the issue and its values; the project's fields remembered (issue-view-pg.ts).
    const rows = await readRows<IssueRow & { field_values: unknown; fields_epoch: unknown }>(
      em,
      PG_ISSUE_SQL,
      [actor.userId, actor.userId, key.shortNameKey, key.number],
    );
    const [row] = rows.filter(readable);
    if (!row) return null;
    const definitionRows = await projectFieldRows(em, Number(row.project_id), String(row.fields_epoch));
    const valueRows = valueRowsOf(row.field_values, Number(row.id));
    const [view] = await assembleViews(em, actor, [row], { definitionRows, valueRows });
    return view ?? null;
  }
  const [view] = await loadViews(
    em,
    actor,
    '(p.short_name_key = ? and i.number_in_project = ?)',
    [key.shortNameKey, key.number],
    readable,
  );
  return view ?? null;
}

async function loadViews(
  em: Em,
  actor: Actor,
  where: string,
  whereParams: readonly (string | number)[],
  readable: (row: IssueRow) => boolean = () => true,
): Promise<IssueView[]> {
  // One statement for the issue and everything that is one value per issue (counts, the
  // latest updater) or decides whether the per-kind statements below need to run at all: most
  // issues have no attachments, tags or links, and each statement skipped is a round trip saved.
  const rows = await readRows<IssueRow>(
    em,
    'select i.id, i.project_id, i.number_in_project, i.summary, i.description, i.created_at, i.updated_at, ' +
      'i.resolved_at, p.short_name, p.name as project_name, u.login, u.full_name, ' +
      'uu.login as updater_login, uu.full_name as updater_full_name, ' +
      'i.reporter_id, i.permitted_group_id, g.name as permitted_group, ' +
      // The counts come from the row that triggers keep per issue (migration 0045): one probe instead
      // of nine; whether the caller starred or voted is looked up only where there are some.
      'coalesce(m.stars, 0) as stars, ' +
      'case when m.stars > 0 then (select count(*) from issue_stars s where s.issue_id = i.id and s.user_id = ?) else 0 end as my_stars, ' +
      'coalesce(m.votes, 0) as votes, ' +
      'case when m.votes > 0 then (select count(*) from issue_votes v where v.issue_id = i.id and v.user_id = ?) else 0 end as my_votes, ' +
      'coalesce(m.attachments, 0) > 0 as has_attachments, coalesce(m.tags, 0) > 0 as has_tags, ' +
      'coalesce(m.comments, 0) > 0 as has_comments, coalesce(m.links, 0) > 0 as has_links ' +
      'from issues i join projects p on p.id = i.project_id join users u on u.id = i.reporter_id ' +
      'left join issue_marks m on m.issue_id = i.id left join user_groups g on g.id = i.permitted_group_id ' +
      // The author of the issue's latest recorded change (the legacy `updaterName`), else the
      // updater an import named.
      'left join users uu on uu.id = coalesce(' +
      '(select c.updater_id from issue_changes c where c.issue_id = i.id order by c.id desc limit 1), i.updater_id) ' +
      `where ${where}`,
    [actor.userId, actor.userId, ...whereParams],
  );
  const issues = rows.filter(readable);
  if (issues.length === 0) return [];
  return assembleViews(em, actor, issues, await readFieldRows(em, issues));
}

/** The views of readable issue rows with their projects' fields and their values. */
async function assembleViews(
  em: Em,
  actor: Actor,
  issues: readonly IssueRow[],
  { definitionRows, valueRows }: FieldRows,
): Promise<IssueView[]> {
  const having = (flag: keyof IssueRow) => issues.filter((i) => toBool(i[flag])).map((i) => Number(i.id));

  // Attached files the caller sees (an attachment recorded with a group: its author and the group's members).
  const attached = having('has_attachments');
  const visibleFiles = visibleAttachmentsSql(actor);
  const attachmentRows = attached.length
    ? await readRows<{ issue_id: number; id: number; name: string }>(
        em,
        'select a.issue_id, a.id, a.name from issue_attachments a ' +
          `where a.issue_id in (${placeholders(attached)}) and ${visibleFiles.sql} order by a.id`,
        [...attached, ...visibleFiles.params],
      )
    : [];
  const attachmentsBy = group(attachmentRows, (r) => Number(r.issue_id));
  const tagged = having('has_tags');
  const tagRows = tagged.length
    ? await readRows<{ issue_id: number; name: string; login: string; shared: unknown }>(
        em,
        'select it.issue_id, t.name, u.login, t.shared from issue_tags it join tags t on t.id = it.tag_id ' +
          'join users u on u.id = t.owner_id ' +
          `where it.issue_id in (${placeholders(tagged)}) and (t.owner_id = ? or t.shared = true) ` +
          'order by t.name_key, t.id',
        [...tagged, actor.userId],
      )
    : [];

  // Voters and watchers (stars) by login, for issues that have some and whose project lets the
  // viewer see them (VIEW_VOTERS, VIEW_WATCHERS), in the order they were given.
  const marks = async (
    table: 'issue_votes' | 'issue_stars',
    permission: 'VIEW_VOTERS' | 'VIEW_WATCHERS',
    count: keyof IssueRow,
  ) => {
    const ids = issues
      .filter((i) => Number(i[count]) > 0 && can(actor, permission, Number(i.project_id)))
      .map((i) => Number(i.id));
    if (!ids.length) return new Map<number, string[]>();
    const rows = await readRows<{ issue_id: number; login: string }>(
      em,
      `select m.issue_id, u.login from ${table} m join users u on u.id = m.user_id ` +
        `where m.issue_id in (${placeholders(ids)}) order by m.id`,
      ids,
    );
    const by = new Map<number, string[]>();
    for (const r of rows) by.set(Number(r.issue_id), [...(by.get(Number(r.issue_id)) ?? []), r.login]);
    return by;
  };
  const votersBy = await marks('issue_votes', 'VIEW_VOTERS', 'votes');
  const watchersBy = await marks('issue_stars', 'VIEW_WATCHERS', 'stars');

  const commented = new Set(having('has_comments'));
  const commentable = issues
    .filter((i) => commented.has(Number(i.id)) && can(actor, 'READ_COMMENT', Number(i.project_id)))
    .map((i) => Number(i.id));
  // Deleted comments and those restricted to a group the viewer is not in are left out.
  const visibleComments = visibleCommentsSql(actor);
  const commentRows = commentable.length
    ? await readRows<CommentRow>(
        em,
        'select c.id, c.issue_id, c.text, c.created_at, c.updated_at, u.login, u.full_name from issue_comments c ' +
          `join users u on u.id = c.author_id where c.issue_id in (${placeholders(commentable)}) ` +
          `and not c.deleted and ${visibleComments.sql} order by c.id`,
        [...commentable, ...visibleComments.params],
      )
    : [];

  const linkSelect =
    'select l.source_id, l.target_id, t.name as type_name, t.outward_name, t.inward_name, t.directed, ' +
    'o.id, o.project_id, o.number_in_project, o.summary, o.resolved_at, o.reporter_id, o.permitted_group_id, ' +
    'op.short_name ' +
    'from issue_links l join issue_link_types t on t.id = l.type_id ';
  const linked = having('has_links');
  const inLinked = placeholders(linked);
  const linkRows = linked.length
    ? await readRows<LinkRow>(
        em,
        `${linkSelect} join issues o on o.id = l.target_id join projects op on op.id = o.project_id ` +
          `where l.source_id in (${inLinked}) union all ` +
          `${linkSelect} join issues o on o.id = l.source_id join projects op on op.id = o.project_id ` +
          `where l.target_id in (${inLinked})`,
        [...linked, ...linked],
      )
    : [];

  // Private fields (`isPrivate` prototypes) only for PRIVATE_READ_ISSUE in the issue's project.
  const definitionsBy = group(
    definitionRows.filter(
      (r) => !toBool(r.is_private) || can(actor, 'PRIVATE_READ_ISSUE', Number(r.project_id)),
    ),
    (r) => Number(r.project_id),
  );
  // Values come ordered by issue: one list per issue, each field picking its own rows from it.
  const valuesBy = group(valueRows, (r) => Number(r.issue_id));
  const tagsBy = group(tagRows, (r) => Number(r.issue_id));
  const commentsBy = group(commentRows, (r) => Number(r.issue_id));
  const byId = new Map<number, IssueView>();
  for (const row of issues) {
    const id = Number(row.id);
    const values = valuesBy.get(id);
    const definitions = definitionsBy.get(Number(row.project_id));
    const fields: IssueFieldView[] = [];
    if (definitions) for (const definition of definitions) fields.push(toField(definition, values));
    // Every view gets the same properties in the same order (no spread into the literal): V8 then
    // keeps one compact shape for all of them instead of a dictionary per view (2 KiB each).
    const view: IssueView = {
      id: formatIssueId(row.short_name, Number(row.number_in_project)),
      dbId: id,
      numberInProject: Number(row.number_in_project),
      project: { shortName: row.short_name, name: row.project_name },
      summary: row.summary,
      description: row.description,
      reporter: { login: row.login, fullName: row.full_name },
      created: toMs(row.created_at),
      updated: toMs(row.updated_at),
      resolved: toMsOrNull(row.resolved_at),
      fields,
      attachments: (attachmentsBy.get(id) ?? []).map((a) => ({ id: Number(a.id), name: a.name })),
      tags: (tagsBy.get(id) ?? []).map((t) => ({ name: t.name, owner: t.login, shared: toBool(t.shared) })),
      // The count tells who watches as the logins do: VIEW_WATCHERS (one's own star is starredByMe).
      stars: can(actor, 'VIEW_WATCHERS', Number(row.project_id)) ? Number(row.stars) : undefined,
      starredByMe: Number(row.my_stars) > 0,
      votes: Number(row.votes),
      votedByMe: Number(row.my_votes) > 0,
      voters: votersBy.get(id) ?? [],
      watchers: watchersBy.get(id) ?? [],
      comments: (commentsBy.get(id) ?? []).map((c) => ({
        id: Number(c.id),
        author: { login: c.login, fullName: c.full_name },
        text: c.text,
        created: toMs(c.created_at),
        updated: toMs(c.updated_at),
      })),
      links: [],
      permittedGroup: row.permitted_group ?? null,
    };
    if (row.updater_login !== null && row.updater_login !== undefined)
      view.updater = { login: row.updater_login, fullName: row.updater_full_name ?? row.updater_login };
    byId.set(id, view);
  }
  for (const link of linkRows) {
    if (!canReadIssue(actor, accessFacts(link))) continue;
    const otherId = Number(link.id);
    const directed = toBool(link.directed);
    const other = {
      id: formatIssueId(link.short_name, Number(link.number_in_project)),
      summary: link.summary,
      resolved: link.resolved_at !== null && link.resolved_at !== undefined,
    };
    // A link from an issue to itself is rejected, so `other` is the source exactly when it is not the target.
    const outward = Number(link.target_id) === otherId;
    const self = byId.get(outward ? Number(link.source_id) : Number(link.target_id));
    self?.links.push({
      typeName: link.type_name,
      role: outward ? link.outward_name : link.inward_name,
      direction: directed ? (outward ? 'outward' : 'inward') : 'both',
      issue: other,
    });
  }
  for (const view of byId.values()) view.links.sort(compareLinks);
  return [...byId.values()];
}

/** What auth/issue-access.ts decides readability on, from a row that selected it. */
const accessFacts = (row: {
  project_id: number;
  reporter_id: number;
  permitted_group_id: number | null;
}) => ({
  projectId: Number(row.project_id),
  reporterId: Number(row.reporter_id),
  permittedGroupId:
    row.permitted_group_id === null || row.permitted_group_id === undefined
      ? null
      : Number(row.permitted_group_id),
});

const compareLinks = (a: IssueLinkView, b: IssueLinkView) =>
  a.role.localeCompare(b.role) || a.issue.id.localeCompare(b.issue.id, undefined, { numeric: true });

/**
 * The fields of the issues' projects (each project's in its order) and the issues' stored
 * values. One issue: one statement, its project's fields joined with its values. Several: the
 * fields, then the values, two small statements rather than one joining every field of every
 * issue and sorting the product (0.16 ms against 0.36 ms for a page of 50; for one issue the
 * second statement would cost more than the join).
 */
async function readFieldRows(em: Em, issues: readonly IssueRow[]): Promise<FieldRows> {
  const select =
    'fv.name as value_name, fv.resolved, fv.color_index, u.login, u.full_name, ifv.text, ifv.number ';
  const joins = 'left join field_values fv on fv.id = ifv.value_id left join users u on u.id = ifv.user_id ';
  const valueOrder = 'fv.ordinal, fv.id, u.login, ifv.slot';
  const [only] = issues;
  if (issues.length === 1 && only) {
    const rows = await readRows<
      FieldDefinitionRow & Omit<FieldValueRow, 'issue_id'> & { issue_id: number | null }
    >(
      em,
      'select pf.id, pf.project_id, pf.name, pf.kind, pf.multi, pf.empty_text, cf.is_private, ifv.issue_id, ' +
        `pf.id as field_id, ${select}` +
        'from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id ' +
        'left join issue_field_values ifv on ifv.field_id = pf.id and ifv.issue_id = ? ' +
        joins +
        `where pf.project_id = ? order by pf.ordinal, pf.id, ${valueOrder}`,
      [Number(only.id), Number(only.project_id)],
    );
    return splitFieldRows(rows);
  }
  const projectIds = [...new Set(issues.map((i) => Number(i.project_id)))];
  const ids = issues.map((i) => Number(i.id));
  const definitionRows = await readRows<FieldDefinitionRow>(
    em,
    'select pf.id, pf.project_id, pf.name, pf.kind, pf.multi, pf.empty_text, cf.is_private from project_fields pf ' +
      'join custom_fields cf on cf.id = pf.custom_field_id ' +
      `where pf.project_id in (${placeholders(projectIds)}) order by pf.ordinal, pf.id`,
    projectIds,
  );
  if (dialectOfEm(em) === 'postgresql') {
    const valueRows = await readRows<FieldValueRow>(
      em,
      `select ifv.issue_id, ifv.field_id, ${select}from issue_field_values ifv ${joins}` +
        `where ifv.issue_id in (${placeholders(ids)}) order by ifv.issue_id, ifv.field_id, ${valueOrder}`,
      ids,
    );
    return { definitionRows, valueRows };
  }
  // SQLite: the stored values alone, in the index's order (issue, field, slot): without the
  // temporary B-tree that sorting every row by value cost (half of the statement), and without
  // joining each to its bundle value or user (two fifths of the rest), which come from lookups
  // remembered under the epochs (fields/value-lookups.ts). The few fields holding several values
  // are put in SQL's order here (PostgreSQL orders logins by its collation: it keeps the SQL).
  const stored = await readRows<StoredValueRow>(
    em,
    'select ifv.issue_id, ifv.field_id, ifv.value_id, ifv.user_id, ifv.text, ifv.number from issue_field_values ifv ' +
      `where ifv.issue_id in (${placeholders(ids)}) order by ifv.issue_id, ifv.field_id, ifv.slot`,
    ids,
  );
  const valueIds = new Set<number>();
  const userIds = new Set<number>();
  for (const row of stored) {
    if (row.value_id !== null) valueIds.add(Number(row.value_id));
    if (row.user_id !== null) userIds.add(Number(row.user_id));
  }
  const lookups =
    valueIds.size + userIds.size > 0 ? await fieldValueLookups(em, valueIds, userIds) : undefined;
  const valueRows = stored.map((row): FieldValueRow & OrderedValueRow => {
    const value = row.value_id === null ? undefined : lookups?.value(Number(row.value_id));
    const user = row.user_id === null ? undefined : lookups?.user(Number(row.user_id));
    return {
      issue_id: row.issue_id,
      field_id: row.field_id,
      value_ordinal: value ? value.ordinal : null,
      value_id: value ? row.value_id : null,
      value_name: value ? value.name : null,
      resolved: value ? value.resolved : null,
      color_index: value ? value.colorIndex : null,
      login: user ? user.login : null,
      full_name: user ? user.fullName : null,
      text: row.text,
      number: row.number,
    };
  });
  return { definitionRows, valueRows: orderFieldValues(valueRows) };
}

/** A stored value of an issue's field, as its row holds it. */
type StoredValueRow = {
  issue_id: number;
  field_id: number;
  value_id: number | null;
  user_id: number | null;
  text: string | null;
  number: unknown;
};
/** A project's fields as the issue view shows them, remembered per project under the vocabulary epoch. */
const projectFieldsCache = epochCacheFor<FieldDefinitionRow[]>((rows) => 256 + 160 * rows.length);

/**
 * The fields of a project, in its order, as remembered under `epoch` (the vocabulary epoch the
 * caller's statement read with the issue: project fields and prototypes bump it in the changing
 * transaction, whatever process or code path changes them). On a miss they are read with the
 * epoch in one statement and kept under the epoch that statement read; inside a transaction
 * nothing is kept (its epoch may be its own, uncommitted one).
 */
async function projectFieldRows(em: Em, projectId: number, epoch: string): Promise<FieldDefinitionRow[]> {
  const cache = projectFieldsCache(em);
  const key = String(projectId);
  const hit = cache.get(key, epoch, Number.POSITIVE_INFINITY);
  if (hit) return hit;
  // One row at least (the epoch's), with null field columns when the project has no field.
  const rows = await readRows<Omit<FieldDefinitionRow, 'id'> & { id: number | null; epoch: unknown }>(
    em,
    'select e.n as epoch, pf.id, pf.project_id, pf.name, pf.kind, pf.multi, pf.empty_text, cf.is_private ' +
      'from trackline_auth_epoch e left join (project_fields pf join custom_fields cf on cf.id = pf.custom_field_id) ' +
      'on pf.project_id = ? where e.id = 2 order by pf.ordinal, pf.id',
    [projectId],
  );
  const definitions = rows.flatMap(({ epoch: _, id, ...row }) => (id === null ? [] : [{ id, ...row }]));
  const [first] = rows;
  if (first && !em.getTransactionContext()) cache.set(key, String(first.epoch), Date.now(), definitions);
  return definitions;
}

/**
 * One issue's fields joined with its values (ordered by field: a field with several values comes
 * on consecutive rows; a field without a value is one row whose value columns are null).
 */
function splitFieldRows(
  rows: readonly (FieldDefinitionRow & Omit<FieldValueRow, 'issue_id'> & { issue_id: number | null })[],
): FieldRows {
  const definitionRows = rows.filter((row, i) => i === 0 || rows[i - 1]?.id !== row.id);
  const valueRows = rows.filter(
    (row): row is (typeof rows)[number] & { issue_id: number } => row.issue_id !== null,
  );
  return { definitionRows, valueRows };
}

/** A field of an issue from the issue's value rows (all its fields' rows; this field's are picked). */
function toField(definition: FieldDefinitionRow, rows: readonly FieldValueRow[] | undefined): IssueFieldView {
  const kind = definition.kind;
  // Most fields hold no value or one: the list is made when the first value comes (an empty
  // array that is pushed to reserves room for 17).
  let values: IssueFieldView['values'] | undefined;
  if (rows) {
    const fieldId = Number(definition.id);
    for (const row of rows) {
      if (Number(row.field_id) !== fieldId) continue;
      const value = toFieldValue(kind, row);
      if (!value) continue;
      if (values) values.push(value);
      else values = [value];
    }
  }
  return {
    name: definition.name,
    kind,
    multi: toBool(definition.multi),
    emptyText: definition.empty_text,
    values: values ?? [],
  };
}

function toFieldValue(kind: FieldKind, row: FieldValueRow): IssueFieldView['values'][number] | undefined {
  if (row.value_name !== null) {
    const colored = row.color_index !== null && row.color_index !== undefined;
    if (kind === 'state')
      return colored
        ? { name: row.value_name, resolved: toBool(row.resolved), colorIndex: Number(row.color_index) }
        : { name: row.value_name, resolved: toBool(row.resolved) };
    return colored ? { name: row.value_name, colorIndex: Number(row.color_index) } : { name: row.value_name };
  }
  if (row.login !== null) return { name: row.login, fullName: row.full_name ?? row.login };
  if (row.text !== null || (row.number !== null && row.number !== undefined))
    return { name: formatSimpleValue(kind, row.text, row.number) };
  return undefined;
}
