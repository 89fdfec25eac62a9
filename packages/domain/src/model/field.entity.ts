import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { BUNDLE_KINDS, FIELD_KINDS } from '../values/field-kinds.js';
import { Group } from './group.entity.js';
import { Issue } from './issue.entity.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

// The kinds are the model's vocabulary below the entities (`values/field-kinds.ts`), named here too.
export {
  BUNDLE_KINDS,
  type BundleKind,
  FIELD_KINDS,
  type FieldKind,
  isBundleKind,
  type SimpleKind,
} from '../values/field-kinds.js';

/** A named set of values (enum, state, version, build, owned field) or users, shared by any number of fields. */
export const Bundle = defineEntity({
  name: 'Bundle',
  tableName: 'bundles',
  uniques: [{ properties: ['kind', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    kind: p.enum(BUNDLE_KINDS),
    name: p.string().length(100),
    nameKey: p.string().length(100),
  },
});
export type IBundle = InferEntity<typeof Bundle>;

/**
 * A field prototype (the original's "custom field"): its name and type are global; projects
 * attach it (`ProjectField`) with a bundle of their own or a shared one.
 */
export const CustomField = defineEntity({
  name: 'CustomField',
  tableName: 'custom_fields',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    nameKey: p.string().length(100).unique(),
    kind: p.enum(FIELD_KINDS),
    multi: p.boolean().default(false),
    isPrivate: p.boolean().default(false),
    defaultVisibility: p.boolean().default(true),
    /** Attached to every new project. */
    autoAttached: p.boolean().default(false),
    defaultBundle: () => p.manyToOne(Bundle).nullable().deleteRule('set null').index(),
    /** 0: projects attach the default bundle itself; 1: each project gets its own copy of it. */
    attachBundlePolicy: p.integer().default(0),
    canBeEmpty: p.boolean().default(true),
    emptyText: p.string().length(100).nullable(),
    /** Name of the value a new issue gets when the field is attached with its default bundle. */
    defaultValue: p.string().length(100).nullable(),
    ordinal: p.integer().default(0),
    /** Other names of the field (comma-separated): `affects` for Affected versions (field-aliases.ts). */
    aliases: p.string().length(500).default(''),
    /** A user field whose users are told of changes as assignees (the seeded Assignee is). */
    isAssignee: p.boolean().default(false),
  },
});
export type ICustomField = InferEntity<typeof CustomField>;

/**
 * A field attached to one project (State, Priority, Assignee...). `name` and `kind` repeat the
 * prototype's (read paths join nothing more); names are unique per project regardless of case.
 */
export const ProjectField = defineEntity({
  name: 'ProjectField',
  tableName: 'project_fields',
  uniques: [{ properties: ['project', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    customField: () => p.manyToOne(CustomField).index(),
    name: p.string().length(100),
    nameKey: p.string().length(100),
    kind: p.enum(FIELD_KINDS),
    multi: p.boolean().default(false),
    /** Where the values come from; null for simple (string, integer...) fields. */
    bundle: () => p.manyToOne(Bundle).nullable().index(),
    canBeEmpty: p.boolean().default(true),
    /** The word shown (and typed) for an empty value: 'Unassigned', 'No subsystem'. */
    emptyText: p.string().length(100).nullable(),
    /** Name of the value a new issue gets; null leaves the field empty. */
    defaultValue: p.string().length(100).nullable(),
    ordinal: p.integer().default(0),
  },
});
export type IProjectField = InferEntity<typeof ProjectField>;

/** A value of an enum, state, version, build or owned-field bundle. */
export const FieldValue = defineEntity({
  name: 'FieldValue',
  tableName: 'field_values',
  uniques: [{ properties: ['bundle', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    bundle: () => p.manyToOne(Bundle).deleteRule('cascade'),
    name: p.string().length(100),
    nameKey: p.string().length(100).index(),
    description: p.string().length(1000).default(''),
    ordinal: p.integer().default(0),
    /** For states: an issue in this state counts as resolved. */
    resolved: p.boolean().default(false),
    colorIndex: p.integer().nullable(),
    /** Versions. */
    released: p.boolean().default(false),
    archived: p.boolean().default(false),
    releaseDate: p.datetime().nullable(),
    /** Builds. */
    assembleDate: p.datetime().nullable(),
    /** Owned fields (subsystems). */
    owner: () => p.manyToOne(User).nullable().deleteRule('set null').index(),
  },
});
export type IFieldValue = InferEntity<typeof FieldValue>;

/** A user of a user bundle (the values of user fields: a project's assignees). */
export const BundleUser = defineEntity({
  name: 'BundleUser',
  tableName: 'bundle_users',
  uniques: [{ properties: ['bundle', 'user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own (migration 0040): the unique (bundle, user) leads with it.
    bundle: () => p.manyToOne(Bundle).deleteRule('cascade').index(false),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
  },
});
export type IBundleUser = InferEntity<typeof BundleUser>;

/** A group of a user bundle: its members are values of the fields using the bundle too. */
export const BundleGroup = defineEntity({
  name: 'BundleGroup',
  tableName: 'bundle_groups',
  uniques: [{ properties: ['bundle', 'group'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    bundle: () => p.manyToOne(Bundle).deleteRule('cascade'),
    group: () => p.manyToOne(Group).deleteRule('cascade').index(),
  },
});
export type IBundleGroup = InferEntity<typeof BundleGroup>;

/**
 * One value of one field of one issue: `value` for bundle fields other than user ones, `user`
 * for user fields, `text` for string/text fields and `number` for integer, float, date (ms
 * since the epoch) and period (minutes) fields. `slot` is 0 for a single-value field (so the
 * unique index allows one row) and the value's or user's id for a multi-value field. An
 * empty field has no row.
 */
export const IssueFieldValue = defineEntity({
  name: 'IssueFieldValue',
  tableName: 'issue_field_values',
  uniques: [{ properties: ['issue', 'field', 'slot'] }],
  /**
   * Search (migration 0020): a value's issues in issue order across every project's copy of the
   * field (`fieldKey`, `valueKey`), a user's (`fieldKey`, `user`), and the probe of one issue's
   * values, all covering.
   */
  indexes: [
    { properties: ['fieldKey', 'valueKey', 'issue'] },
    // `has: Field` (rows without a user, in issue order) and a user's issues: split (migration 0051).
    {
      name: 'issue_field_values_field_key_issue_id_no_user_index',
      properties: ['fieldKey', 'issue'],
      where: 'user_id is null',
    },
    {
      name: 'issue_field_values_field_key_user_id_issue_id_user_index',
      properties: ['fieldKey', 'user', 'issue'],
      where: 'user_id is not null',
    },
    { properties: ['issue', 'fieldKey', 'valueKey', 'user'] },
    // Partial (migration 0041): most rows have no user, or no bundle value, and a row with none
    // is never looked up by it (a user's or a value's deletion, a value's rename).
    { name: 'issue_field_values_value_id_index', properties: ['value'], where: 'value_id is not null' },
    { name: 'issue_field_values_user_id_index', properties: ['user'], where: 'user_id is not null' },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // No index of its own (migration 0037): the unique (issue, field, slot) and the probe index
    // both start with the issue, and each index is paid on every value an import writes.
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(false),
    field: () => p.manyToOne(ProjectField).deleteRule('cascade'),
    slot: p.integer(),
    value: () => p.manyToOne(FieldValue).nullable().deleteRule('cascade').index(false),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade').index(false),
    text: p.text().nullable(),
    number: p.double().nullable(),
    /**
     * Search keys, kept by database triggers (migration 0020) whatever code writes the row: the
     * field's prototype (`custom_fields.id`, the same in every project) and the value's name key.
     */
    fieldKey: p.integer().nullable(),
    valueKey: p.text().nullable(),
  },
});
export type IIssueFieldValue = InferEntity<typeof IssueFieldValue>;
