import type { Actor } from '../../auth/actor.js';
import { DomainError } from '../../errors.js';
import { findGroupByName } from '../../groups/group-names.js';
import {
  Bundle,
  BundleGroup,
  type BundleKind,
  BundleUser,
  CustomField,
  FieldValue,
  type IBundle,
  type IFieldValue,
  IssueFieldValue,
  ProjectField,
} from '../../model/field.entity.js';
import { User } from '../../model/user.entity.js';
import type { Em } from '../../orm/em.js';
import { onUniqueViolation, rejectWith } from '../../orm/unique.js';
import { nameKey } from '../../text/user-text.js';
import { requireFieldsAdmin, requireFieldsReader, validName } from './custom-fields.js';
import { BUNDLE_TYPES, type BundleType } from './field-types.js';

/** A bundle value with the attributes its type has (the others are absent). */
export type BundleValueView = {
  name: string;
  description?: string;
  colorIndex?: number;
  isResolved?: boolean;
  released?: boolean;
  archived?: boolean;
  releaseDate?: number;
  assembleDate?: number;
  owner?: string;
};

export type BundleView = {
  type: BundleType;
  name: string;
  values: BundleValueView[];
  /** User bundles: their users' logins. */
  users: string[];
  /** User bundles: their groups' names. */
  groups: string[];
};

/** What a value may carry; each type takes its own attributes and ignores the rest. */
export type BundleValueInput = {
  name: string;
  description?: string | undefined;
  colorIndex?: number | undefined;
  isResolved?: boolean | undefined;
  released?: boolean | undefined;
  archived?: boolean | undefined;
  /** Milliseconds since the epoch. */
  releaseDate?: number | undefined;
  assembleDate?: number | undefined;
  /** Login of the owner (owned fields). */
  owner?: string | undefined;
};

const kindOf = (type: BundleType): BundleKind => BUNDLE_TYPES[type];

function valueView(kind: BundleKind, v: IFieldValue, owners: Map<number, string>): BundleValueView {
  const view: BundleValueView = { name: v.name };
  if (kind !== 'build') view.description = v.description;
  if ((kind === 'enum' || kind === 'state') && v.colorIndex !== null && v.colorIndex !== undefined)
    view.colorIndex = v.colorIndex;
  if (kind === 'state') view.isResolved = v.resolved;
  if (kind === 'version') {
    view.released = v.released;
    view.archived = v.archived;
    if (v.releaseDate) view.releaseDate = v.releaseDate.getTime();
  }
  if (kind === 'build' && v.assembleDate) view.assembleDate = v.assembleDate.getTime();
  if (kind === 'ownedField' && v.owner) {
    const owner = owners.get(v.owner.id);
    if (owner) view.owner = owner;
  }
  return view;
}

export async function findBundle(em: Em, type: BundleType, name: string): Promise<IBundle> {
  const bundle = await em.findOne(Bundle, { kind: kindOf(type), nameKey: nameKey(name) });
  if (!bundle) throw DomainError.notFound('Bundle', name);
  return bundle;
}

async function view(em: Em, type: BundleType, bundle: IBundle): Promise<BundleView> {
  const kind = kindOf(type);
  const values = await em.find(FieldValue, { bundle: bundle.id }, { orderBy: { ordinal: 'asc', id: 'asc' } });
  const ownerIds = values.flatMap((v) => (v.owner ? [v.owner.id] : []));
  const owners = new Map(
    ownerIds.length ? (await em.find(User, { id: { $in: ownerIds } })).map((u) => [u.id, u.login]) : [],
  );
  const users =
    kind === 'user'
      ? (
          await em.find(
            BundleUser,
            { bundle: bundle.id },
            { populate: ['user'], orderBy: { user: { loginKey: 'asc' } } },
          )
        ).map((u) => u.user.login)
      : [];
  const groups =
    kind === 'user'
      ? (
          await em.find(
            BundleGroup,
            { bundle: bundle.id },
            { populate: ['group'], orderBy: { group: { nameKey: 'asc' } } },
          )
        ).map((g) => g.group.name)
      : [];
  return { type, name: bundle.name, values: values.map((v) => valueView(kind, v, owners)), users, groups };
}

/** The bundles of a type, by name: field settings, read by who administers fields (`requireFieldsReader`). */
export async function listBundles(em: Em, actor: Actor, type: BundleType): Promise<string[]> {
  requireFieldsReader(actor);
  return (await em.find(Bundle, { kind: kindOf(type) }, { orderBy: { nameKey: 'asc' } })).map((b) => b.name);
}

/** One bundle with its values (`requireFieldsReader`). */
export async function getBundle(em: Em, actor: Actor, type: BundleType, name: string): Promise<BundleView> {
  requireFieldsReader(actor);
  return bundleView(em, type, name);
}

/** One bundle with its values, unchecked: for reads that checked their own rule (a project's sub-resources). */
export async function bundleView(em: Em, type: BundleType, name: string): Promise<BundleView> {
  return view(em, type, await findBundle(em, type, name));
}

/**
 * The original's word for "no owner" on an owned-field value and a subsystem's default assignee
 * (`owner="<no user>"`, `defaultAssignee="<no user>"`): its python library maps it to no owner and
 * sends it back, so it reads as no owner here too.
 */
export const NO_USER = '<no user>';

async function ownerId(em: Em, login: string | undefined): Promise<number | null> {
  if (!login?.trim() || login.trim() === NO_USER) return null;
  const user = await em.findOne(User, { loginKey: nameKey(login) });
  if (!user) throw DomainError.invalid('owner', `user [ ${login} ] not found`);
  return user.id;
}

const date = (ms: number | undefined, field: string) => {
  if (ms === undefined) return null;
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) throw DomainError.invalid(field, 'must be milliseconds since the epoch');
  return d;
};

async function valueRow(em: Em, kind: BundleKind, input: BundleValueInput) {
  if (
    input.colorIndex !== undefined &&
    !(Number.isInteger(input.colorIndex) && input.colorIndex >= 0 && input.colorIndex <= 1000)
  )
    throw DomainError.invalid('colorIndex', 'must be an integer from 0 to 1000');
  if ((input.description ?? '').length > 1000)
    throw DomainError.invalid('description', 'must be at most 1000 characters');
  return {
    description: input.description ?? '',
    colorIndex: input.colorIndex ?? null,
    resolved: kind === 'state' && (input.isResolved ?? false),
    released: kind === 'version' && (input.released ?? false),
    archived: kind === 'version' && (input.archived ?? false),
    releaseDate: kind === 'version' ? date(input.releaseDate, 'releaseDate') : null,
    assembleDate: kind === 'build' ? date(input.assembleDate, 'assembleDate') : null,
    owner: kind === 'ownedField' ? await ownerId(em, input.owner) : null,
  };
}

/**
 * Creates a bundle with its values or users (fields admin), as the original's PUT of the
 * bundle's XML. 409 when a bundle of the type has the name; a repeated value is 400.
 */
export async function createBundle(
  em: Em,
  actor: Actor,
  type: BundleType,
  input: {
    name: string;
    values?: BundleValueInput[] | undefined;
    users?: string[] | undefined;
    groups?: string[] | undefined;
  },
): Promise<BundleView> {
  requireFieldsAdmin(actor);
  const kind = kindOf(type);
  const name = validName(input.name, 'name');
  const duplicate = () => DomainError.alreadyExists('Bundle', name);
  if (await em.findOne(Bundle, { kind, nameKey: nameKey(name) })) throw duplicate();
  const values = input.values ?? [];
  if (kind === 'user' && values.length)
    throw DomainError.invalid('value', 'a user bundle holds users, not values');
  const seen = new Set<string>();
  const rows: ({ name: string } & Awaited<ReturnType<typeof valueRow>>)[] = [];
  for (const v of values) {
    const valueName = validName(v.name, 'value');
    if (seen.has(nameKey(valueName))) throw DomainError.invalid('value', `[ ${valueName} ] is repeated`);
    seen.add(nameKey(valueName));
    rows.push({ name: valueName, ...(await valueRow(em, kind, v)) });
  }
  const userIds: number[] = [];
  for (const login of input.users ?? []) {
    const user = await em.findOne(User, { loginKey: nameKey(login) });
    if (!user) throw DomainError.invalid('user', `user [ ${login} ] not found`);
    if (!userIds.includes(user.id)) userIds.push(user.id);
  }
  const groupIds: number[] = [];
  for (const groupName of input.groups ?? []) {
    const group = await findGroupByName(em, groupName);
    if (!group) throw DomainError.invalid('userGroup', `group [ ${groupName} ] not found`);
    if (!groupIds.includes(group.id)) groupIds.push(group.id);
  }
  return onUniqueViolation(
    async () => {
      const bundle = em.create(Bundle, { kind, name, nameKey: nameKey(name) });
      for (const group of groupIds) em.create(BundleGroup, { bundle, group });
      rows.forEach((row, ordinal) => {
        em.create(FieldValue, { bundle, nameKey: nameKey(row.name), ordinal, ...row });
      });
      for (const user of userIds) em.create(BundleUser, { bundle, user });
      await em.flush();
      return view(em, type, bundle);
    },
    rejectWith(() => duplicate()),
  );
}

/** Deletes a bundle (fields admin); 409 while a project field takes its values from it. */
export async function deleteBundle(em: Em, actor: Actor, type: BundleType, name: string): Promise<void> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, type, name);
  const used = await em.find(ProjectField, { bundle: bundle.id }, { populate: ['project'], limit: 10 });
  if (used.length) {
    throw new DomainError(
      'CONFLICT',
      `Bundle [ ${bundle.name} ] is used by field [ ${used[0]?.name} ] in projects [ ${used.map((f) => f.project.shortName).join(', ')} ].`,
    );
  }
  await em.nativeUpdate(CustomField, { defaultBundle: bundle.id }, { defaultBundle: null });
  await em.nativeDelete(Bundle, { id: bundle.id });
}

function noUserValues(type: BundleType) {
  if (kindOf(type) === 'user')
    throw DomainError.invalid(
      'bundleType',
      'user bundles take users: …/userBundle/{bundle}/individual/{login}',
    );
}

/** Adds a value after the others (fields admin); 409 when the bundle has it (any case). */
export async function addBundleValue(
  em: Em,
  actor: Actor,
  type: BundleType,
  bundleName: string,
  input: BundleValueInput,
): Promise<BundleValueView> {
  requireFieldsAdmin(actor);
  noUserValues(type);
  return addValueTo(em, await findBundle(em, type, bundleName), input);
}

/** Adds a value to `bundle` after the others, with no permission check (the callers check theirs). */
export async function addValueTo(em: Em, bundle: IBundle, input: BundleValueInput): Promise<BundleValueView> {
  const kind = bundle.kind;
  const name = validName(input.name, 'value');
  const duplicate = () =>
    new DomainError('ALREADY_EXISTS', `Value [ ${name} ] already exists in bundle [ ${bundle.name} ].`);
  if (await em.findOne(FieldValue, { bundle: bundle.id, nameKey: nameKey(name) })) throw duplicate();
  const row = await valueRow(em, kind, input);
  const last = await em.findOne(FieldValue, { bundle: bundle.id }, { orderBy: { ordinal: 'desc' } });
  return onUniqueViolation(
    async () => {
      const value = em.create(FieldValue, {
        bundle,
        name,
        nameKey: nameKey(name),
        ordinal: (last?.ordinal ?? -1) + 1,
        ...row,
      });
      await em.flush();
      const owners = new Map(row.owner && input.owner ? [[row.owner, input.owner.trim()]] : []);
      return valueView(kind, value, owners);
    },
    rejectWith(() => duplicate()),
  );
}

async function findValue(em: Em, bundle: IBundle, name: string): Promise<IFieldValue> {
  const value = await em.findOne(FieldValue, { bundle: bundle.id, nameKey: nameKey(name) });
  if (!value) throw DomainError.notFound('Value', name);
  return value;
}

/** Changes a value's attributes, or its name with `newName` (fields admin). */
export async function updateBundleValue(
  em: Em,
  actor: Actor,
  type: BundleType,
  bundleName: string,
  valueName: string,
  input: BundleValueUpdate,
): Promise<BundleValueView> {
  requireFieldsAdmin(actor);
  noUserValues(type);
  return updateValueIn(em, await findBundle(em, type, bundleName), valueName, input);
}

export type BundleValueUpdate = Partial<BundleValueInput> & { newName?: string | undefined };

/** Changes a value of `bundle`, with no permission check (the callers check theirs). */
export async function updateValueIn(
  em: Em,
  bundle: IBundle,
  valueName: string,
  input: BundleValueUpdate,
): Promise<BundleValueView> {
  const kind = bundle.kind;
  const value = await findValue(em, bundle, valueName);
  const row = await valueRow(em, kind, { name: value.name, ...input });
  if (input.description !== undefined) value.description = row.description;
  if (input.colorIndex !== undefined) value.colorIndex = row.colorIndex;
  if (input.isResolved !== undefined) value.resolved = row.resolved;
  if (input.released !== undefined) value.released = row.released;
  if (input.archived !== undefined) value.archived = row.archived;
  if (input.releaseDate !== undefined) value.releaseDate = row.releaseDate;
  if (input.assembleDate !== undefined) value.assembleDate = row.assembleDate;
  if (input.owner !== undefined) value.owner = row.owner === null ? null : em.getReference(User, row.owner);
  if (input.newName?.trim()) {
    const newName = validName(input.newName, 'newName');
    const other = await em.findOne(FieldValue, { bundle: bundle.id, nameKey: nameKey(newName) });
    if (other && other.id !== value.id)
      throw new DomainError(
        'ALREADY_EXISTS',
        `Value [ ${newName} ] already exists in bundle [ ${bundle.name} ].`,
      );
    value.name = newName;
    value.nameKey = nameKey(newName);
  }
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => new DomainError('ALREADY_EXISTS', `Value [ ${input.newName} ] already exists.`)),
  );
  const owner = value.owner ? await em.findOne(User, value.owner.id) : null;
  return valueView(kind, value, new Map(owner ? [[owner.id, owner.login]] : []));
}

/** Removes a value (fields admin); refused (409) while issues hold it, naming how many. */
export async function deleteBundleValue(
  em: Em,
  actor: Actor,
  type: BundleType,
  bundleName: string,
  valueName: string,
): Promise<void> {
  requireFieldsAdmin(actor);
  noUserValues(type);
  await deleteValueFrom(em, await findBundle(em, type, bundleName), valueName);
}

/** Removes a value of `bundle` unless issues hold it (409), with no permission check. */
export async function deleteValueFrom(em: Em, bundle: IBundle, valueName: string): Promise<void> {
  const value = await findValue(em, bundle, valueName);
  const uses = await em.count(IssueFieldValue, { value: value.id });
  if (uses > 0) {
    throw new DomainError(
      'CONFLICT',
      `Value [ ${value.name} ] of bundle [ ${bundle.name} ] is used by ${uses} issue${uses === 1 ? '' : 's'}: change them first.`,
    );
  }
  await em.nativeDelete(FieldValue, { id: value.id });
}

/** Adds a user to a user bundle (fields admin); adding one already there changes nothing. */
export async function addBundleUser(em: Em, actor: Actor, bundleName: string, login: string): Promise<void> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, 'userBundle', bundleName);
  const user = await em.findOne(User, { loginKey: nameKey(login) });
  if (!user) throw DomainError.notFound('User', login);
  if (await em.findOne(BundleUser, { bundle: bundle.id, user: user.id })) return;
  await onUniqueViolation(
    async () => {
      await em.insert(BundleUser, { bundle: bundle.id, user: user.id });
    },
    () => undefined,
  );
}

/** Removes a user from a user bundle (fields admin); issues assigned to them keep it. */
export async function removeBundleUser(
  em: Em,
  actor: Actor,
  bundleName: string,
  login: string,
): Promise<void> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, 'userBundle', bundleName);
  const user = await em.findOne(User, { loginKey: nameKey(login) });
  if (!user) throw DomainError.notFound('User', login);
  if ((await em.nativeDelete(BundleUser, { bundle: bundle.id, user: user.id })) === 0)
    throw new DomainError('NOT_FOUND', `User [ ${login} ] is not in bundle [ ${bundle.name} ].`);
}

/** Adds a group to a user bundle (fields admin): its members become values of the fields using it. */
export async function addBundleGroup(
  em: Em,
  actor: Actor,
  bundleName: string,
  groupName: string,
): Promise<void> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, 'userBundle', bundleName);
  const group = await findGroupByName(em, groupName);
  if (!group) throw DomainError.notFound('Group', groupName);
  if (await em.findOne(BundleGroup, { bundle: bundle.id, group: group.id })) return;
  await onUniqueViolation(
    async () => {
      await em.insert(BundleGroup, { bundle: bundle.id, group: group.id });
    },
    () => undefined,
  );
}

/** Removes a group from a user bundle (fields admin); issues assigned to its members keep it. */
export async function removeBundleGroup(
  em: Em,
  actor: Actor,
  bundleName: string,
  groupName: string,
): Promise<void> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, 'userBundle', bundleName);
  const group = await findGroupByName(em, groupName);
  if (!group) throw DomainError.notFound('Group', groupName);
  if ((await em.nativeDelete(BundleGroup, { bundle: bundle.id, group: group.id })) === 0)
    throw new DomainError('NOT_FOUND', `Group [ ${group.name} ] is not in bundle [ ${bundle.name} ].`);
}

/**
 * Renames a bundle (fields admin), as the original's `POST …/{bundleType}/{bundle}?newName`; the
 * project fields keep it (they point at the bundle, not its name). 409 when another bundle of
 * the type has the new name in any case; renaming to the same name changes nothing.
 */
export async function renameBundle(
  em: Em,
  actor: Actor,
  type: BundleType,
  name: string,
  newName: string,
): Promise<{ name: string }> {
  requireFieldsAdmin(actor);
  const bundle = await findBundle(em, type, name);
  const renamed = validName(newName, 'newName');
  const duplicate = () => DomainError.alreadyExists('Bundle', renamed);
  const key = nameKey(renamed);
  if (key !== bundle.nameKey && (await em.findOne(Bundle, { kind: bundle.kind, nameKey: key })))
    throw duplicate();
  return onUniqueViolation(
    async () => {
      bundle.name = renamed;
      bundle.nameKey = key;
      await em.flush();
      return { name: renamed };
    },
    rejectWith(() => duplicate()),
  );
}
