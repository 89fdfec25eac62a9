import { type Actor, canAnywhere, requirePermission } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import {
  Bundle,
  CustomField,
  type ICustomField,
  isBundleKind,
  ProjectField,
} from '../../model/field.entity.js';
import type { Em } from '../../orm/em.js';
import { onUniqueViolation, rejectWith } from '../../orm/unique.js';
import { freeBundleName } from '../../projects/attach-fields.js';
import { nameKey, oneLine } from '../../text/user-text.js';
import { checkAliases, DOCUMENTED_ALIASES, parseAliases } from './field-aliases.js';
import { formatFieldType, parseFieldType } from './field-types.js';

/**
 * Field prototypes and bundles are global: changing them needs UPDATE_PROJECT granted
 * globally (the administrator's grant), as they change every project that uses them.
 */
export const FIELDS_ADMIN = 'administer custom fields and bundles (UPDATE_PROJECT in every project)';
export const requireFieldsAdmin = (actor: Actor) =>
  requirePermission(actor, 'UPDATE_PROJECT', undefined, FIELDS_ADMIN);

/**
 * Reading them is administration too, as in the original (its `/rest/admin/...` resources need
 * administrative permissions): UPDATE_PROJECT granted globally or in some project, whose holder
 * attaches prototypes and bundles to projects. Everyone else would read the names of private
 * fields and their values there, which for them do not exist (docs/visibility.md).
 */
export const FIELDS_READER = 'read custom field settings (UPDATE_PROJECT)';
export function requireFieldsReader(actor: Actor): void {
  if (!canAnywhere(actor, 'UPDATE_PROJECT')) throw DomainError.forbidden(FIELDS_READER);
}

export type PrototypeView = {
  name: string;
  type: string;
  isPrivate: boolean;
  visibleByDefault: boolean;
  autoAttached: boolean;
  defaultBundle: string | null;
  attachBundlePolicy: number;
  /** Other names of the field (field-aliases.ts). */
  aliases: string[];
};

async function toView(em: Em, f: ICustomField): Promise<PrototypeView> {
  const bundle = f.defaultBundle ? await em.findOne(Bundle, f.defaultBundle.id) : null;
  return {
    name: f.name,
    type: formatFieldType(f.kind, f.multi),
    isPrivate: f.isPrivate,
    visibleByDefault: f.defaultVisibility,
    autoAttached: f.autoAttached,
    defaultBundle: bundle?.name ?? null,
    attachBundlePolicy: f.attachBundlePolicy,
    aliases: parseAliases(f.aliases),
  };
}

/** Every prototype's name and aliases by key → its name, but `exceptId`'s (whose aliases are checked). */
async function takenNames(em: Em, exceptId: number | null): Promise<Map<string, string>> {
  const taken = new Map<string, string>();
  for (const f of await em.find(CustomField, {}, { fields: ['id', 'name', 'nameKey', 'aliases'] })) {
    if (f.id === exceptId) continue;
    taken.set(f.nameKey, f.name);
    for (const alias of parseAliases(f.aliases)) taken.set(nameKey(alias), f.name);
  }
  return taken;
}

/**
 * Changes a prototype's aliases (fields admin; comma-separated, empty: none) and whether its users
 * are told of changes as assignees (`isAssignee`, user fields only; docs/notifications.md).
 */
export async function updatePrototype(
  em: Em,
  actor: Actor,
  name: string,
  input: { aliases?: string | undefined; isAssignee?: boolean | undefined },
): Promise<PrototypeView> {
  requireFieldsAdmin(actor);
  const field = await findPrototype(em, name);
  if (input.isAssignee !== undefined && field.kind !== 'user')
    throw DomainError.invalid('isAssignee', `[ ${field.name} ] is not a user field`);
  if (input.aliases !== undefined)
    field.aliases = checkAliases(input.aliases, field.name, await takenNames(em, field.id));
  if (input.isAssignee !== undefined) field.isAssignee = input.isAssignee;
  if (input.aliases !== undefined || input.isAssignee !== undefined) await em.flush();
  return toView(em, field);
}

export async function listPrototypes(em: Em, actor: Actor): Promise<PrototypeView[]> {
  requireFieldsReader(actor);
  const fields = await em.find(CustomField, {}, { orderBy: { ordinal: 'asc', id: 'asc' } });
  return Promise.all(fields.map((f) => toView(em, f)));
}

export async function findPrototype(em: Em, name: string): Promise<ICustomField> {
  const field = await em.findOne(CustomField, { nameKey: nameKey(name) });
  if (!field) throw DomainError.notFound('Custom field', name);
  return field;
}

export async function getPrototype(em: Em, actor: Actor, name: string): Promise<PrototypeView> {
  requireFieldsReader(actor);
  return toView(em, await findPrototype(em, name));
}

export type NewPrototype = {
  name: string;
  type: string;
  isPrivate?: boolean | undefined;
  defaultVisibility?: boolean | undefined;
  autoAttached?: boolean | undefined;
  defaultBundle?: string | undefined;
  attachBundlePolicy?: number | undefined;
  emptyFieldText?: string | undefined;
  canBeEmpty?: boolean | undefined;
  /** Comma-separated; absent: the documented aliases of a predefined field of that name, if any. */
  aliases?: string | undefined;
};

/** A valid field or value name: one line, trimmed, 1–100 characters (400 naming `field`). */
export function validName(text: string, field: string): string {
  const name = oneLine(text).trim();
  if (!name) throw DomainError.invalid(field, 'must not be empty');
  if (name.length > 100) throw DomainError.invalid(field, 'must be at most 100 characters');
  return name;
}

/**
 * Creates a field prototype (fields admin). A bundle type without `defaultBundle` gets a new
 * empty default bundle named after the field. 409 when the name is taken (any case).
 */
export async function createPrototype(em: Em, actor: Actor, input: NewPrototype): Promise<PrototypeView> {
  requireFieldsAdmin(actor);
  const name = validName(input.name, 'name');
  const { kind, multi } = parseFieldType(input.type);
  const policy = input.attachBundlePolicy ?? 0;
  if (![0, 1, 2].includes(policy)) throw DomainError.invalid('attachBundlePolicy', 'must be 0, 1 or 2');
  const duplicate = () => DomainError.alreadyExists('Custom field', name);
  if (await em.findOne(CustomField, { nameKey: nameKey(name) })) throw duplicate();
  const taken = await takenNames(em, null);
  const aliasOf = taken.get(nameKey(name));
  // A field of this very name committed since the check above (a concurrent creator): a duplicate.
  if (aliasOf !== undefined && nameKey(aliasOf) === nameKey(name)) throw duplicate();
  if (aliasOf !== undefined)
    throw DomainError.invalid('name', `[ ${name} ] is an alias of field [ ${aliasOf} ]`);
  const aliases = checkAliases(
    input.aliases ?? DOCUMENTED_ALIASES[nameKey(name)]?.join(', ') ?? '',
    name,
    taken,
  );
  let defaultBundle = null;
  if (isBundleKind(kind)) {
    if (input.defaultBundle?.trim()) {
      defaultBundle = await em.findOne(Bundle, { kind, nameKey: nameKey(input.defaultBundle) });
      if (!defaultBundle)
        throw DomainError.invalid('defaultBundle', `no ${kind} bundle [ ${input.defaultBundle} ]`);
    } else {
      const bundleName = await freeBundleName(em, kind, name);
      defaultBundle = em.create(Bundle, { kind, name: bundleName, nameKey: nameKey(bundleName) });
    }
  }
  const [last] = await em.find(CustomField, {}, { orderBy: { ordinal: 'desc' }, limit: 1 });
  return onUniqueViolation(
    async () => {
      const field = em.create(CustomField, {
        name,
        nameKey: nameKey(name),
        kind,
        multi,
        isPrivate: input.isPrivate ?? false,
        defaultVisibility: input.defaultVisibility ?? true,
        autoAttached: input.autoAttached ?? false,
        defaultBundle,
        attachBundlePolicy: policy,
        canBeEmpty: input.canBeEmpty ?? true,
        emptyText: input.emptyFieldText?.trim() ? validName(input.emptyFieldText, 'emptyFieldText') : null,
        defaultValue: null,
        ordinal: (last?.ordinal ?? -1) + 1,
        aliases,
      });
      await em.flush();
      return toView(em, field);
    },
    rejectWith(() => duplicate()),
  );
}

/** Deletes a prototype (fields admin); 409 while projects use it (detach it first). */
export async function deletePrototype(em: Em, actor: Actor, name: string): Promise<void> {
  requireFieldsAdmin(actor);
  const field = await findPrototype(em, name);
  const used = await em.find(ProjectField, { customField: field.id }, { populate: ['project'], limit: 10 });
  if (used.length > 0) {
    throw new DomainError(
      'CONFLICT',
      `Custom field [ ${field.name} ] is used in projects [ ${used.map((f) => f.project.shortName).join(', ')} ]: detach it first.`,
    );
  }
  await em.nativeDelete(CustomField, { id: field.id });
}
