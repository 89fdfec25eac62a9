import type { Nullable, SelectQueryBuilder } from 'kysely';
import { type Database, tables } from '../../model/database.js';

/** The tables of `fieldsWithBundleValues` by alias (spelled out: the inferred type is too long to emit). */
type FieldRowTables = Database & {
  pf: Database['project_fields'];
  cf: Database['custom_fields'];
  fv: Nullable<Database['field_values']>;
};

/**
 * A project's fields with their prototype (`cf`) and, for bundle fields, one row per value of
 * their bundle (`fv`; its columns null for simple fields and empty bundles): the one join the
 * command state, the vocabulary and the field pickers each select their columns from.
 */
export const fieldsWithBundleValues = (): SelectQueryBuilder<
  FieldRowTables,
  'pf' | 'cf' | 'fv',
  Record<never, never>
> =>
  tables
    .selectFrom('project_fields as pf')
    .innerJoin('custom_fields as cf', 'cf.id', 'pf.custom_field_id')
    .leftJoin('field_values as fv', 'fv.bundle_id', 'pf.bundle_id');
