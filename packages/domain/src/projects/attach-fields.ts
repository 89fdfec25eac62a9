import {
  Bundle,
  BundleGroup,
  type BundleKind,
  BundleUser,
  CustomField,
  FieldValue,
  type IBundle,
  type ICustomField,
  isBundleKind,
  ProjectField,
} from '../model/field.entity.js';
import type { IProject } from '../model/project.entity.js';
import type { Em } from '../orm/em.js';
import { nameKey } from '../text/user-text.js';

/** A bundle name not taken yet for `kind`: `base`, else `base (2)`, `base (3)`... */
export async function freeBundleName(em: Em, kind: BundleKind, base: string): Promise<string> {
  for (let from = 1; ; from += 20) {
    const candidates = Array.from({ length: 20 }, (_, i) =>
      from + i === 1 ? base : `${base} (${from + i})`,
    );
    const taken = new Set(
      (await em.find(Bundle, { kind, nameKey: { $in: candidates.map(nameKey) } })).map((b) => b.nameKey),
    );
    const free = candidates.find((name) => !taken.has(nameKey(name)));
    if (free) return free;
  }
}

/**
 * A new bundle holding a copy of `source`'s values (or users), named after the project and
 * the field (`PRJ: Priority`). Only `em.create`: the caller's flush writes it.
 */
async function copyBundle(
  em: Em,
  kind: BundleKind,
  source: IBundle | null,
  name: string,
  extraUserId: number | null,
): Promise<IBundle> {
  const bundleName = await freeBundleName(em, kind, name);
  const bundle = em.create(Bundle, { kind, name: bundleName, nameKey: nameKey(bundleName) });
  if (kind === 'user') {
    const users = new Set<number>(
      source ? (await em.find(BundleUser, { bundle: source.id })).map((u) => u.user.id) : [],
    );
    if (extraUserId !== null) users.add(extraUserId);
    for (const user of users) em.create(BundleUser, { bundle, user });
    if (source)
      for (const g of await em.find(BundleGroup, { bundle: source.id }))
        em.create(BundleGroup, { bundle, group: g.group });
    return bundle;
  }
  if (source) {
    for (const v of await em.find(
      FieldValue,
      { bundle: source.id },
      { orderBy: { ordinal: 'asc', id: 'asc' } },
    )) {
      em.create(FieldValue, {
        bundle,
        name: v.name,
        nameKey: v.nameKey,
        description: v.description,
        ordinal: v.ordinal,
        resolved: v.resolved,
        colorIndex: v.colorIndex ?? null,
        released: v.released,
        archived: v.archived,
        releaseDate: v.releaseDate ?? null,
        assembleDate: v.assembleDate ?? null,
        owner: v.owner ?? null,
      });
    }
  }
  return bundle;
}

export type AttachOptions = {
  /** A bundle of the prototype's kind to take values from; default: as the prototype's policy says. */
  bundle?: IBundle | null | undefined;
  emptyText?: string | null | undefined;
  /** For a new project: its lead joins a copied user bundle. */
  leadId?: number | undefined;
  ordinal: number;
};

/**
 * Attaches a prototype to a project (only `em.create`; the caller flushes). The bundle is the
 * one given, else the prototype's default bundle itself (policy 0) or a copy of it made for
 * this project (policy 1), or a new empty one (policy 2). Bundles made for a project are
 * named `PRJ: Field`; detaching the field or purging the project removes them when unused. The default value applies only when the bundle has it.
 */
export async function attachPrototype(
  em: Em,
  project: IProject,
  prototype: ICustomField,
  options: AttachOptions,
) {
  let bundle: IBundle | null = null;
  if (isBundleKind(prototype.kind)) {
    const kind = prototype.kind;
    if (options.bundle) bundle = options.bundle;
    else if (prototype.attachBundlePolicy === 0 && prototype.defaultBundle)
      bundle = await em.findOneOrFail(Bundle, prototype.defaultBundle.id);
    else {
      // Policy 1 copies the default bundle; policy 2 (or no default bundle) starts an empty one.
      const source =
        prototype.attachBundlePolicy === 1 && prototype.defaultBundle
          ? await em.findOne(Bundle, prototype.defaultBundle.id)
          : null;
      bundle = await copyBundle(
        em,
        kind,
        source,
        `${project.shortName}: ${prototype.name}`,
        options.leadId ?? null,
      );
    }
  }
  return em.create(ProjectField, {
    project,
    customField: prototype,
    name: prototype.name,
    nameKey: prototype.nameKey,
    kind: prototype.kind,
    multi: prototype.multi,
    bundle,
    canBeEmpty: prototype.canBeEmpty,
    emptyText: options.emptyText !== undefined ? options.emptyText : (prototype.emptyText ?? null),
    defaultValue: prototype.defaultValue ?? null,
    ordinal: options.ordinal,
  });
}

/**
 * Attaches every auto-attached prototype to a new project, in the prototypes' order, the lead
 * joining its user bundles. Only `em.create`: the caller's flush writes them with the project.
 */
export async function attachDefaultFields(em: Em, project: IProject, leadId: number): Promise<void> {
  const prototypes = await em.find(
    CustomField,
    { autoAttached: true },
    { orderBy: { ordinal: 'asc', id: 'asc' } },
  );
  let ordinal = 0;
  for (const prototype of prototypes) {
    await attachPrototype(em, project, prototype, { leadId, ordinal: ordinal++ });
  }
}
