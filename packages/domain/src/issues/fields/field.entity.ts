import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Project } from '../../projects/project.entity.js';
import { User } from '../../users/user.entity.js';
import { Issue } from '../issue.entity.js';

export const FIELD_KINDS = ['enum', 'state', 'user', 'version'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A field of one project (State, Priority, Assignee...). Names are unique per project regardless of case. */
export const ProjectField = defineEntity({
  name: 'ProjectField',
  tableName: 'project_fields',
  uniques: [{ properties: ['project', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    name: p.string().length(100),
    nameKey: p.string().length(100),
    kind: p.enum(FIELD_KINDS),
    multi: p.boolean().default(false),
    canBeEmpty: p.boolean().default(true),
    /** The word shown (and typed) for an empty value: 'Unassigned', 'No subsystem'. */
    emptyText: p.string().length(100).nullable(),
    /** Name of the value a new issue gets; null leaves the field empty. */
    defaultValue: p.string().length(100).nullable(),
    ordinal: p.integer().default(0),
  },
});
export type IProjectField = InferEntity<typeof ProjectField>;

/** A value of an enum, state or version field. User fields take their values from `ProjectAssignee`. */
export const FieldValue = defineEntity({
  name: 'FieldValue',
  tableName: 'field_values',
  uniques: [{ properties: ['field', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    field: () => p.manyToOne(ProjectField).deleteRule('cascade'),
    name: p.string().length(100),
    nameKey: p.string().length(100).index(),
    description: p.string().length(1000).default(''),
    ordinal: p.integer().default(0),
    /** For states: an issue in this state counts as resolved. */
    resolved: p.boolean().default(false),
  },
});
export type IFieldValue = InferEntity<typeof FieldValue>;

/** The users an issue of the project may be assigned to (values of its user fields). */
export const ProjectAssignee = defineEntity({
  name: 'ProjectAssignee',
  tableName: 'project_assignees',
  uniques: [{ properties: ['project', 'user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
  },
});
export type IProjectAssignee = InferEntity<typeof ProjectAssignee>;

/**
 * One value of one field of one issue: `value` for enum/state/version fields, `user` for
 * user fields. `slot` is 0 for a single-value field (so the unique index allows one row)
 * and the value's or user's id for a multi-value field. An empty field has no row.
 */
export const IssueFieldValue = defineEntity({
  name: 'IssueFieldValue',
  tableName: 'issue_field_values',
  uniques: [{ properties: ['issue', 'field', 'slot'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade'),
    field: () => p.manyToOne(ProjectField).deleteRule('cascade'),
    slot: p.integer(),
    value: () => p.manyToOne(FieldValue).nullable().deleteRule('cascade').index(),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade').index(),
  },
});
export type IIssueFieldValue = InferEntity<typeof IssueFieldValue>;
