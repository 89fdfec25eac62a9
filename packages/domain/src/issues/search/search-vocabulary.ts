import { type Actor, can, projectsWith } from '../../auth/actor.js';
import type { FieldKind } from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import { epochCacheFor, remembered } from '../../orm/epoch-cache.js';
import { toBool } from '../../orm/row-values.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { readRows } from '../../orm/statements.js';
import { HAS_ATTRIBUTE, normalize, type QueryLexicon, SORT_ATTRIBUTES } from '../../query/query-parser.js';
import { parseAliases } from '../fields/field-aliases.js';
import { readableProjectIds } from './readable-issues.js';

/**
 * What a query may name, for one caller: the attributes of the reference (built-ins), the fields
 * of the projects the caller reads, link phrases, and those projects.
 */
export type BuiltinAttribute =
  | 'project'
  | 'issueId'
  | 'summary'
  | 'description'
  | 'comments'
  | 'commenter'
  | 'reporter'
  | 'assignee'
  | 'created'
  | 'updated'
  | 'resolved'
  | 'tag'
  | 'savedSearch'
  | 'links'
  | 'votes'
  | 'visibleTo';

/** The original's attribute names and aliases. */
export const BUILTIN_ATTRIBUTES: Record<string, BuiltinAttribute> = {
  project: 'project',
  'issue id': 'issueId',
  issue: 'issueId',
  summary: 'summary',
  description: 'description',
  comments: 'comments',
  'comment text': 'comments',
  commenter: 'commenter',
  'commented by': 'commenter',
  reporter: 'reporter',
  by: 'reporter',
  'reported by': 'reporter',
  'created by': 'reporter',
  'submitted by': 'reporter',
  for: 'assignee',
  'assigned to': 'assignee',
  created: 'created',
  updated: 'updated',
  'resolved date': 'resolved',
  tag: 'tag',
  'saved search': 'savedSearch',
  links: 'links',
  votes: 'votes',
  'visible to': 'visibleTo',
};

/** `has:` words besides field names and link phrases. */
export const HAS_VALUES = ['attachments', 'comments', 'description', 'links', 'votes', 'star', 'tags'];

/** Sort attributes besides field names (`sort by: Priority`). */
export const SORT_BUILTINS: Record<string, { kind: string; direction: 'asc' | 'desc' }> = {
  created: { kind: 'created', direction: 'desc' },
  updated: { kind: 'updated', direction: 'desc' },
  'resolved date': { kind: 'resolved', direction: 'desc' },
  votes: { kind: 'votes', direction: 'desc' },
  'issue id': { kind: 'issueId', direction: 'asc' },
  project: { kind: 'project', direction: 'asc' },
  summary: { kind: 'summary', direction: 'asc' },
  reporter: { kind: 'reporter', direction: 'asc' },
  comments: { kind: 'comments', direction: 'desc' },
};

export type SearchField = {
  name: string;
  key: string;
  kinds: Set<FieldKind>;
  /** The fields' prototype ids (`issue_field_values.field_key`). */
  fieldKeys: number[];
  bundleIds: number[];
  emptyTexts: Set<string>;
  projectIds: number[];
  /** A private field (`isPrivate` prototype): read only with PRIVATE_READ_ISSUE in the project. */
  isPrivate: boolean;
  /**
   * Projects where the caller may not read this (private) field: there its values decide
   * nothing (the field is as absent as in a project without it). Empty for most fields.
   */
  hiddenProjectIds: number[];
  /**
   * No project holds more than one value of this field per issue (`multi` is false everywhere; set
   * when the field is created, never changed): ranges of two of its values never share an issue.
   */
  singleValued: boolean;
};

export type LinkPhrase = { typeId: number; outward: boolean; symmetric: boolean; phrase: string };

export type SearchVocabulary = {
  /** Readable project ids; `'all'` for a global reader. */
  projects: 'all' | number[];
  fields: Map<string, SearchField>;
  /** The fields by their prototypes' aliases (`affects` → Affected versions). */
  aliases: Map<string, SearchField>;
  links: Map<string, LinkPhrase[]>;
  lexicon: QueryLexicon;
};

/**
 * The fields a caller may search by. The one place "fields this caller may see" is decided, for
 * conditions, `has:`, sorting and suggestions alike: a private field is known only where the
 * caller holds PRIVATE_READ_ISSUE (nowhere: it is an unknown attribute, as if it did not exist);
 * the projects where it may not be read are kept so that conditions leave their values out.
 */
export function searchableFields(actor: Actor, fields: SearchField[]): SearchField[] {
  return fields.flatMap((field) => {
    if (!field.isPrivate) return [field];
    const hidden = field.projectIds.filter((id) => !can(actor, 'PRIVATE_READ_ISSUE', id));
    if (hidden.length === field.projectIds.length) return [];
    return [{ ...field, hiddenProjectIds: hidden }];
  });
}

/** Ids of the project fields whose values the actor may not read: private ones, without PRIVATE_READ_ISSUE there. */
export async function hiddenProjectFieldIds(em: Em, actor: Actor): Promise<number[]> {
  const readers = projectsWith(actor, 'PRIVATE_READ_ISSUE');
  if (readers === 'all') return [];
  const except = readers.length ? ` and pf.project_id not in (${placeholders(readers)})` : '';
  const rows = await readRows<{ id: number }>(
    em,
    `select pf.id from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id where cf.is_private = ?${except}`,
    [true, ...readers],
  );
  return rows.map((r) => Number(r.id));
}

const vocabularies = epochCacheFor((v: SearchVocabulary) => 1024 + 256 * v.fields.size + 128 * v.links.size);

/**
 * The caller's search vocabulary, remembered under the epochs (migrations 0012, 0013: grants,
 * projects, project fields, link types) while they are unchanged, for a minute at most.
 */
export function loadSearchVocabulary(em: Em, actor: Actor): Promise<SearchVocabulary> {
  const projects = readableProjectIds(actor);
  const key = `${actor.userId}|${projects === 'all' ? 'all' : projects.join(',')}`;
  return remembered(vocabularies(em), em, key, 60_000, () => buildSearchVocabulary(em, actor));
}

async function buildSearchVocabulary(em: Em, actor: Actor): Promise<SearchVocabulary> {
  const projects = readableProjectIds(actor);
  const inProjects =
    projects === 'all'
      ? ''
      : projects.length
        ? `where pf.project_id in (${placeholders(projects)})`
        : 'where 1 = 0';
  const rows = await readRows<{
    name: string;
    name_key: string;
    kind: FieldKind;
    custom_field_id: number;
    bundle_id: number | null;
    empty_text: string | null;
    project_id: number;
    is_private: unknown;
    aliases: string | null;
    multi: unknown;
  }>(
    em,
    'select pf.name, pf.name_key, pf.kind, pf.custom_field_id, pf.bundle_id, pf.empty_text, pf.project_id, pf.multi, ' +
      `cf.is_private, cf.aliases from project_fields pf join custom_fields cf on cf.id = pf.custom_field_id ${inProjects}`,
    projects === 'all' ? [] : projects,
  );
  const byKey = new Map<string, SearchField>();
  for (const r of rows) {
    let field = byKey.get(r.name_key);
    if (!field) {
      field = {
        name: r.name,
        key: r.name_key,
        kinds: new Set(),
        fieldKeys: [],
        bundleIds: [],
        emptyTexts: new Set(),
        projectIds: [],
        isPrivate: false,
        hiddenProjectIds: [],
        singleValued: true,
      };
      byKey.set(r.name_key, field);
    }
    field.kinds.add(r.kind);
    if (!field.fieldKeys.includes(Number(r.custom_field_id))) field.fieldKeys.push(Number(r.custom_field_id));
    if (r.bundle_id !== null) field.bundleIds.push(Number(r.bundle_id));
    if (r.empty_text) field.emptyTexts.add(r.empty_text.toLowerCase());
    field.projectIds.push(Number(r.project_id));
    if (toBool(r.is_private)) field.isPrivate = true;
    if (toBool(r.multi)) field.singleValued = false;
  }
  const fields = new Map(searchableFields(actor, [...byKey.values()]).map((f) => [f.key, f]));
  const aliases = new Map<string, SearchField>();
  for (const r of rows) {
    const field = fields.get(r.name_key);
    for (const alias of field ? parseAliases(r.aliases) : []) {
      const key = normalize(alias);
      if (field && !fields.has(key) && !(key in BUILTIN_ATTRIBUTES)) aliases.set(key, field);
    }
  }
  const links = new Map<string, LinkPhrase[]>();
  const types = await readRows<{ id: number; outward_name: string; inward_name: string }>(
    em,
    'select id, outward_name, inward_name from issue_link_types',
  );
  for (const t of types) {
    const symmetric = normalize(t.outward_name) === normalize(t.inward_name);
    const add = (phrase: string, outward: boolean) => {
      const key = normalize(phrase);
      links.set(key, [...(links.get(key) ?? []), { typeId: Number(t.id), outward, symmetric, phrase }]);
    };
    add(t.outward_name, true);
    if (!symmetric) add(t.inward_name, false);
  }
  const attributes = new Set([
    ...Object.keys(BUILTIN_ATTRIBUTES),
    ...SORT_ATTRIBUTES,
    HAS_ATTRIBUTE,
    ...fields.keys(),
    ...aliases.keys(),
    ...links.keys(),
  ]);
  const sortKeys = new Set([...Object.keys(SORT_BUILTINS), ...fields.keys(), ...aliases.keys()]);
  const maxWords = Math.max(3, ...[...attributes].map((a) => a.split(' ').length));
  return {
    projects,
    fields,
    aliases,
    links,
    lexicon: { isAttribute: (key) => attributes.has(key), isSortKey: (key) => sortKeys.has(key), maxWords },
  };
}
