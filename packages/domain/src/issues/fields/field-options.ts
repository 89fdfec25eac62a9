import { sql } from 'kysely';
import { type Actor, can } from '../../auth/actor.js';
import { tables } from '../../model/database.js';
import type { FieldKind } from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import { toBool } from '../../orm/row-values.js';
import { type Param, prepareRead } from '../../orm/typed-query.js';
import { bundleMembers } from '../../projects/bundle-usage.js';
import { getReadableProject } from '../../projects/projects.js';
import { fieldsWithBundleValues } from './field-rows.js';

/** A value a field may take: a bundle value (with its colour and flags) or a user. */
export type FieldOption = {
  name: string;
  /** Users: the full name. */
  fullName?: string;
  description: string;
  /** The colour index of an enum or state value (none: no colour). */
  colorIndex?: number;
  /** States: an issue in this state counts as resolved. */
  resolved: boolean;
  /** Versions: archived ones are offered no more, but issues may still hold them. */
  archived: boolean;
};

/** A project field with every value it may take: what a value picker offers. */
export type FieldOptions = {
  name: string;
  kind: FieldKind;
  multi: boolean;
  canBeEmpty: boolean;
  emptyText: string | null;
  /** Bundle values in the bundle's order, users by login; empty for simple fields. */
  values: FieldOption[];
};

/** A project's fields, each joined with its bundle's values, in the project's order. */
const fieldValuesQuery = prepareRead((param: Param<{ projectId: number }>) =>
  fieldsWithBundleValues()
    .select([
      'pf.id',
      'pf.name',
      'pf.kind',
      'pf.multi',
      'pf.can_be_empty',
      'pf.empty_text',
      'fv.name as value_name',
      'fv.description',
      'fv.color_index',
      'fv.resolved',
      'fv.archived',
      'cf.is_private',
    ])
    .where('pf.project_id', '=', param('projectId'))
    .orderBy('pf.ordinal')
    .orderBy('pf.id')
    .orderBy('fv.ordinal')
    .orderBy('fv.id'),
);
/** The users of a project's user fields: their bundles' users and groups' members. */
const fieldUsersQuery = prepareRead((param: Param<{ projectId: number }>) =>
  tables
    .selectFrom('project_fields as pf')
    .innerJoin(bundleMembers().as('bm'), 'bm.bundle_id', 'pf.bundle_id')
    .innerJoin('users as u', 'u.id', 'bm.user_id')
    .select(['pf.id as field_id', 'u.login', 'u.full_name'])
    .distinct()
    .where('pf.kind', '=', sql.lit('user'))
    .where('pf.project_id', '=', param('projectId'))
    .orderBy('u.login'),
);

/**
 * The fields of a project (READ_PROJECT), in the project's order, each with the values it may
 * take: its bundle's values, or for user fields the bundle's users and its groups' members.
 * Private fields only for PRIVATE_READ_ISSUE in the project (as the issue view shows them).
 * Two statements, whatever the number of fields.
 */
export async function projectFieldOptions(em: Em, actor: Actor, shortName: string): Promise<FieldOptions[]> {
  const project = await getReadableProject(em, actor, shortName);
  const readsPrivate = can(actor, 'PRIVATE_READ_ISSUE', project.id);
  const fields = new Map<number, FieldOptions>();
  for (const row of await fieldValuesQuery.all(em, { projectId: project.id })) {
    if (toBool(row.is_private) && !readsPrivate) continue;
    const id = Number(row.id);
    let field = fields.get(id);
    if (!field) {
      field = {
        name: row.name,
        kind: row.kind,
        multi: toBool(row.multi),
        canBeEmpty: toBool(row.can_be_empty),
        emptyText: row.empty_text,
        values: [],
      };
      fields.set(id, field);
    }
    if (row.value_name === null) continue;
    const value: FieldOption = {
      name: row.value_name,
      description: row.description ?? '',
      resolved: toBool(row.resolved),
      archived: toBool(row.archived),
    };
    if (row.color_index !== null && row.color_index !== undefined) value.colorIndex = Number(row.color_index);
    field.values.push(value);
  }
  for (const row of await fieldUsersQuery.all(em, { projectId: project.id })) {
    fields.get(Number(row.field_id))?.values.push({
      name: row.login,
      fullName: row.full_name,
      description: '',
      resolved: false,
      archived: false,
    });
  }
  return [...fields.values()];
}
