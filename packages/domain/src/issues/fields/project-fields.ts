import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { type FieldKind, FieldValue, ProjectField } from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import { onUniqueViolation, rejectWith } from '../../orm/unique.js';
import { BUNDLE_MEMBERS } from '../../projects/bundle-usage.js';
import { getReadableProject } from '../../projects/projects.js';
import { nameKey, oneLine } from '../../text/user-text.js';

export type FieldValueView = { name: string; description: string; resolved: boolean; fullName?: string };

export type ProjectFieldView = {
  name: string;
  kind: FieldKind;
  multi: boolean;
  canBeEmpty: boolean;
  emptyText: string | null;
  defaultValue: string | null;
  /** In display order; a user field lists the project's assignees (name = login). */
  values: FieldValueView[];
};

/** The project's fields with their values (READ_PROJECT). */
export async function listProjectFields(
  em: Em,
  actor: Actor,
  shortName: string,
): Promise<ProjectFieldView[]> {
  const project = await getReadableProject(em, actor, shortName);
  const fields = await em.find(
    ProjectField,
    { project: project.id },
    { orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  const bundleIds = fields.flatMap((f) => (f.bundle ? [f.bundle.id] : []));
  const values = await em.find(
    FieldValue,
    { bundle: { $in: bundleIds } },
    { orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  const users = bundleIds.length
    ? await em.execute<{ bundle_id: number; login: string; full_name: string }[]>(
        'select bm.bundle_id, u.login, u.full_name from (' +
          BUNDLE_MEMBERS +
          `) bm join users u on u.id = bm.user_id where bm.bundle_id in (${bundleIds.map(() => '?').join(', ')}) order by u.login_key`,
        bundleIds,
      )
    : [];
  return fields.map((f) => ({
    name: f.name,
    kind: f.kind,
    multi: f.multi,
    canBeEmpty: f.canBeEmpty,
    emptyText: f.emptyText ?? null,
    defaultValue: f.defaultValue ?? null,
    values:
      f.kind === 'user'
        ? users
            .filter((a) => Number(a.bundle_id) === f.bundle?.id)
            .map((a) => ({
              name: a.login,
              fullName: a.full_name,
              description: '',
              resolved: false,
            }))
        : values
            .filter((v) => v.bundle.id === f.bundle?.id)
            .map((v) => ({ name: v.name, description: v.description, resolved: v.resolved })),
  }));
}

export type NewFieldValue = {
  name: string;
  description?: string | undefined;
  resolved?: boolean | undefined;
};

/**
 * Adds a value to a project's enum, state or version field (UPDATE_PROJECT), after the
 * existing ones. Names are unique per field regardless of case (the unique index decides
 * between concurrent writers). User fields take their values from the assignees.
 */
export async function addFieldValue(
  em: Em,
  actor: Actor,
  shortName: string,
  fieldName: string,
  input: NewFieldValue,
): Promise<FieldValueView> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  const field = await em.findOne(ProjectField, { project: project.id, nameKey: nameKey(fieldName) });
  if (!field) throw DomainError.notFound('Field', fieldName);
  if (field.kind === 'user') {
    throw DomainError.invalid('field', `[ ${field.name} ] takes its values from the project's assignees`);
  }
  const bundle = field.bundle;
  if (!bundle) throw DomainError.invalid('field', `[ ${field.name} ] has no values to add to`);
  const name = oneLine(input.name).trim();
  if (!name) throw DomainError.invalid('name', 'must not be empty');
  if (name.length > 100) throw DomainError.invalid('name', 'must be at most 100 characters');
  if (field.emptyText && name.toLowerCase() === field.emptyText.toLowerCase()) {
    throw DomainError.invalid('name', `[ ${name} ] is the empty value of field [ ${field.name} ]`);
  }
  const duplicate = () =>
    new DomainError('ALREADY_EXISTS', `Value [ ${name} ] already exists in field [ ${field.name} ].`);
  if (await em.findOne(FieldValue, { bundle: bundle.id, nameKey: name.toLowerCase() })) throw duplicate();
  const last = await em.findOne(FieldValue, { bundle: bundle.id }, { orderBy: { ordinal: 'desc' } });
  return onUniqueViolation(
    async () => {
      const value = em.create(FieldValue, {
        bundle,
        name,
        nameKey: name.toLowerCase(),
        description: input.description ?? '',
        ordinal: (last?.ordinal ?? -1) + 1,
        resolved: field.kind === 'state' && (input.resolved ?? false),
      });
      await em.flush();
      return { name: value.name, description: value.description, resolved: value.resolved };
    },
    rejectWith(() => duplicate()),
  );
}
