import { type Actor, can, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { Bundle, type BundleKind, type IBundle, ProjectField } from '../../model/field.entity.js';
import type { IProject } from '../../model/project.entity.js';
import type { Em } from '../../orm/em.js';
import { getReadableProject } from '../../projects/projects.js';
import { nameKey } from '../../text/user-text.js';
import {
  addValueTo,
  type BundleValueInput,
  type BundleValueUpdate,
  type BundleValueView,
  bundleView,
  deleteValueFrom,
  updateValueIn,
} from './bundles.js';
import { bundleTypeOf } from './field-types.js';

/**
 * The original's project sub-resources (`/admin/project/{p}/subsystem`, `/version`, `/build`)
 * are views of the bundle of one of the project's fields: Subsystem (else the first owned
 * field), Fix versions (else the first version field), the first build field. Reading needs
 * READ_PROJECT there, changing UPDATE_PROJECT there (a shared bundle changes for every
 * project that uses it, as in the original).
 */
export type ProjectBundleKind = 'ownedField' | 'version' | 'build';
const PREFERRED: Record<ProjectBundleKind, string> = {
  ownedField: 'subsystem',
  version: 'fix versions',
  build: 'fixed in build',
};
const LABEL: Record<ProjectBundleKind, string> = {
  ownedField: 'subsystem',
  version: 'version',
  build: 'build',
};

/**
 * The project's field of that kind; `reader` given: leaving out a private field the reader may not
 * read there (PRIVATE_READ_ISSUE), which for them does not exist (docs/visibility.md).
 */
async function projectField(em: Em, project: IProject, kind: ProjectBundleKind, reader?: Actor) {
  const fields = (
    await em.find(
      ProjectField,
      { project: project.id, kind, bundle: { $ne: null } },
      { orderBy: { ordinal: 'asc', id: 'asc' }, populate: ['customField'] },
    )
  ).filter((f) => !reader || !f.customField.isPrivate || can(reader, 'PRIVATE_READ_ISSUE', project.id));
  return fields.find((f) => f.nameKey === PREFERRED[kind]) ?? fields[0];
}

async function projectBundle(
  em: Em,
  project: IProject,
  kind: ProjectBundleKind,
  reader?: Actor,
): Promise<IBundle | null> {
  const field = await projectField(em, project, kind, reader);
  return field?.bundle ? em.findOne(Bundle, field.bundle.id) : null;
}

/** Makes `name` the default value of the project's field of `kind` (`isDefault` of a subsystem), or clears it. */
async function setDefault(
  em: Em,
  project: IProject,
  kind: ProjectBundleKind,
  name: string,
  isDefault: boolean,
) {
  const field = await projectField(em, project, kind);
  if (!field) return;
  if (isDefault) field.defaultValue = name;
  else if (field.defaultValue && nameKey(field.defaultValue) === nameKey(name)) field.defaultValue = null;
  await em.flush();
}

async function writable(em: Em, actor: Actor, shortName: string, kind: ProjectBundleKind) {
  const project = await getReadableProject(em, actor, shortName);
  requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
  const bundle = await projectBundle(em, project, kind);
  if (!bundle)
    throw DomainError.invalid(
      LABEL[kind],
      `project [ ${project.shortName} ] has no ${kind} field to hold it`,
    );
  return { project, bundle };
}

export type ProjectBundleValueView = BundleValueView & { isDefault: boolean };

/** The values of the project's subsystem, version or build field (READ_PROJECT); empty without one. */
export async function listProjectBundleValues(
  em: Em,
  actor: Actor,
  shortName: string,
  kind: ProjectBundleKind,
): Promise<ProjectBundleValueView[]> {
  const project = await getReadableProject(em, actor, shortName);
  const field = await projectField(em, project, kind, actor);
  const bundle = await projectBundle(em, project, kind, actor);
  if (!bundle) return [];
  const fallback = field?.defaultValue ? nameKey(field.defaultValue) : null;
  return (await bundleView(em, bundleTypeOf(kind as BundleKind), bundle.name)).values.map((v) => ({
    ...v,
    isDefault: nameKey(v.name) === fallback,
  }));
}

export async function getProjectBundleValue(
  em: Em,
  actor: Actor,
  shortName: string,
  kind: ProjectBundleKind,
  name: string,
): Promise<ProjectBundleValueView> {
  const values = await listProjectBundleValues(em, actor, shortName, kind);
  const value = values.find((v) => nameKey(v.name) === nameKey(name));
  if (!value) throw DomainError.notFound(LABEL[kind][0]?.toUpperCase() + LABEL[kind].slice(1), name);
  return value;
}

export async function addProjectBundleValue(
  em: Em,
  actor: Actor,
  shortName: string,
  kind: ProjectBundleKind,
  input: BundleValueInput & { isDefault?: boolean | undefined },
): Promise<BundleValueView> {
  const { project, bundle } = await writable(em, actor, shortName, kind);
  const value = await addValueTo(em, bundle, input);
  if (input.isDefault) await setDefault(em, project, kind, value.name, true);
  return value;
}

export async function updateProjectBundleValue(
  em: Em,
  actor: Actor,
  shortName: string,
  kind: ProjectBundleKind,
  name: string,
  input: BundleValueUpdate & { isDefault?: boolean | undefined },
): Promise<BundleValueView> {
  const { project, bundle } = await writable(em, actor, shortName, kind);
  const value = await updateValueIn(em, bundle, name, input);
  if (input.isDefault !== undefined) await setDefault(em, project, kind, value.name, input.isDefault);
  return value;
}

export async function deleteProjectBundleValue(
  em: Em,
  actor: Actor,
  shortName: string,
  kind: ProjectBundleKind,
  name: string,
): Promise<void> {
  const { project, bundle } = await writable(em, actor, shortName, kind);
  await deleteValueFrom(em, bundle, name);
  await setDefault(em, project, kind, name, false);
}
