import { type Actor, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import {
  Bundle,
  type FieldKind,
  type IProjectField,
  IssueFieldValue,
  isBundleKind,
  ProjectField,
} from '../../model/field.entity.js';
import type { IProject } from '../../model/project.entity.js';
import type { Em } from '../../orm/em.js';
import { inTransaction } from '../../orm/transaction.js';
import { onUniqueViolation, rejectWith } from '../../orm/unique.js';
import { attachPrototype } from '../../projects/attach-fields.js';
import { deleteUnusedBundles } from '../../projects/bundle-usage.js';
import { getReadableProject } from '../../projects/projects.js';
import { nameKey } from '../../text/user-text.js';
import { findPrototype, validName } from './custom-fields.js';
import { formatFieldType } from './field-types.js';

export type ProjectCustomFieldView = {
  name: string;
  type: string;
  emptyText: string;
  canBeEmpty: boolean;
  /** The bundle the values come from; null for simple fields. */
  bundle: string | null;
  defaultValues: string[];
};

async function toView(em: Em, f: IProjectField): Promise<ProjectCustomFieldView> {
  const bundle = f.bundle ? await em.findOne(Bundle, f.bundle.id) : null;
  return {
    name: f.name,
    type: formatFieldType(f.kind, f.multi),
    emptyText: f.emptyText ?? '',
    canBeEmpty: f.canBeEmpty,
    bundle: bundle?.name ?? null,
    defaultValues: f.defaultValue ? [f.defaultValue] : [],
  };
}

async function updatable(em: Em, actor: Actor, shortName: string): Promise<IProject> {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  return project;
}

async function attachedField(em: Em, project: IProject, name: string): Promise<IProjectField> {
  const field = await em.findOne(ProjectField, { project: project.id, nameKey: nameKey(name) });
  if (!field) throw DomainError.notFound('Project custom field', name);
  return field;
}

/**
 * The project's fields in display order: the project's field settings, read by who administers
 * the project (UPDATE_PROJECT there; an unreadable project is 404), as in the original, whose
 * `/rest/admin/...` resources need administration. Everyone else learns a project's fields from
 * what it may read of its issues (private fields left out): `projects.fieldOptions`, the issue.
 */
export async function listProjectCustomFields(em: Em, actor: Actor, shortName: string): Promise<string[]> {
  const project = await updatable(em, actor, shortName);
  const fields = await em.find(
    ProjectField,
    { project: project.id },
    { orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  return fields.map((f) => f.name);
}

export async function getProjectCustomField(
  em: Em,
  actor: Actor,
  shortName: string,
  name: string,
): Promise<ProjectCustomFieldView> {
  const project = await updatable(em, actor, shortName);
  return toView(em, await attachedField(em, project, name));
}

export type ProjectFieldSettings = {
  emptyFieldText?: string | undefined;
  canBeEmpty?: boolean | undefined;
  /** Name of a bundle of the field's type. */
  bundle?: string | undefined;
  defaultValue?: string | undefined;
};

async function bundleNamed(em: Em, kind: FieldKind, name: string) {
  if (!isBundleKind(kind)) throw DomainError.invalid('bundle', 'this field type takes no bundle');
  const bundle = await em.findOne(Bundle, { kind, nameKey: nameKey(name) });
  if (!bundle) throw DomainError.invalid('bundle', `no ${kind} bundle [ ${name} ]`);
  return bundle;
}

/**
 * Attaches a prototype to a project (UPDATE_PROJECT there) with the bundle named, else as the
 * prototype's bundle policy says. 409 when the project has the field already.
 */
export async function attachProjectCustomField(
  em: Em,
  actor: Actor,
  shortName: string,
  name: string,
  settings: ProjectFieldSettings,
): Promise<ProjectCustomFieldView> {
  const project = await updatable(em, actor, shortName);
  const prototype = await findPrototype(em, name);
  const duplicate = () =>
    new DomainError(
      'ALREADY_EXISTS',
      `Field [ ${prototype.name} ] is already in project [ ${project.shortName} ].`,
    );
  if (await em.findOne(ProjectField, { project: project.id, nameKey: prototype.nameKey })) throw duplicate();
  const bundle = settings.bundle?.trim() ? await bundleNamed(em, prototype.kind, settings.bundle) : null;
  const last = await em.findOne(ProjectField, { project: project.id }, { orderBy: { ordinal: 'desc' } });
  return onUniqueViolation(
    async () => {
      const field = await attachPrototype(em, project, prototype, {
        bundle,
        emptyText: settings.emptyFieldText?.trim()
          ? validName(settings.emptyFieldText, 'emptyFieldText')
          : undefined,
        ordinal: (last?.ordinal ?? -1) + 1,
      });
      if (settings.canBeEmpty !== undefined) field.canBeEmpty = settings.canBeEmpty;
      await em.flush();
      return toView(em, field);
    },
    rejectWith(() => duplicate()),
  );
}

/**
 * Changes a project field's empty text, emptiness, default value or bundle (UPDATE_PROJECT).
 * Switching bundles while issues hold values of the field is refused (409): their values
 * belong to the old bundle.
 */
export async function updateProjectCustomField(
  em: Em,
  actor: Actor,
  shortName: string,
  name: string,
  settings: ProjectFieldSettings,
): Promise<ProjectCustomFieldView> {
  const project = await updatable(em, actor, shortName);
  const field = await attachedField(em, project, name);
  if (settings.emptyFieldText !== undefined)
    field.emptyText = settings.emptyFieldText.trim()
      ? validName(settings.emptyFieldText, 'emptyFieldText')
      : null;
  if (settings.canBeEmpty !== undefined) field.canBeEmpty = settings.canBeEmpty;
  if (settings.bundle?.trim()) {
    const bundle = await bundleNamed(em, field.kind, settings.bundle);
    if (bundle.id !== field.bundle?.id) {
      if ((await em.count(IssueFieldValue, { field: field.id })) > 0) {
        throw new DomainError(
          'CONFLICT',
          `Issues hold values of field [ ${field.name} ]: its bundle cannot change while they do.`,
        );
      }
      field.bundle = bundle;
    }
  }
  if (settings.defaultValue !== undefined) {
    const value = settings.defaultValue.trim();
    if (value && field.kind === 'user')
      throw DomainError.invalid('defaultValue', 'user fields take no default');
    if (value && !isBundleKind(field.kind))
      throw DomainError.invalid('defaultValue', 'simple fields take no default');
    if (value && field.bundle) {
      const known = await em
        .getConnection()
        .execute<{ name: string }[]>('select name from field_values where bundle_id = ? and name_key = ?', [
          field.bundle.id,
          nameKey(value),
        ]);
      if (!known[0]) throw DomainError.invalid('defaultValue', `[ ${value} ] is not a value of the field`);
      field.defaultValue = known[0].name;
    } else field.defaultValue = null;
  }
  await em.flush();
  return toView(em, field);
}

/**
 * Detaches a field from a project (UPDATE_PROJECT): the issues lose their values of it, and a
 * bundle made for the project goes when nothing else uses it.
 */
export async function detachProjectCustomField(
  em: Em,
  actor: Actor,
  shortName: string,
  name: string,
): Promise<void> {
  const project = await updatable(em, actor, shortName);
  const field = await attachedField(em, project, name);
  await inTransaction(em, async (tx) => {
    await tx.nativeDelete(IssueFieldValue, { field: field.id });
    await tx.nativeDelete(ProjectField, { id: field.id });
    if (field.bundle) await deleteUnusedBundles(tx as Em, [field.bundle.id], project.shortName);
  });
}
