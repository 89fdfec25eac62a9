import { type Actor, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { IssueLink } from '../issues/issue.entity.js';
import type { Em } from '../orm/em.js';
import { isUniqueViolation } from '../orm/unique.js';
import { type IIssueLinkType, IssueLinkType } from './link-type.entity.js';

const WHAT = 'administer issue link types (UPDATE_ISSUE_LINK_TYPE)';

export type LinkTypeFields = {
  outwardName?: string | undefined;
  inwardName?: string | undefined;
  directed?: boolean | undefined;
  aggregation?: boolean | undefined;
};

export function listLinkTypes(em: Em): Promise<IIssueLinkType[]> {
  return em.find(IssueLinkType, {}, { orderBy: { nameKey: 'asc' } });
}

export async function getLinkType(em: Em, name: string): Promise<IIssueLinkType> {
  const type = await em.findOne(IssueLinkType, { nameKey: name.toLowerCase() });
  if (!type) throw DomainError.notFound('Issue link type', name);
  return type;
}

export async function countLinkTypeUsages(em: Em, name: string): Promise<number> {
  const type = await getLinkType(em, name);
  return em.count(IssueLink, { type: type.id });
}

/**
 * Link names are what commands are typed with (`relates to PRJ-1`), so a phrase may
 * belong to one link type only; the type's own outward and inward names may coincide.
 */
function assertLinkNamesFree(all: IIssueLinkType[], names: string[]) {
  for (const phrase of names) {
    const owner = all.find(
      (t) =>
        t.outwardName.toLowerCase() === phrase.toLowerCase() ||
        t.inwardName.toLowerCase() === phrase.toLowerCase(),
    );
    if (owner) {
      throw new DomainError(
        'ALREADY_EXISTS',
        `Link name [ ${phrase} ] is already used by issue link type [ ${owner.name} ].`,
      );
    }
  }
}

function resolveNames(fields: LinkTypeFields, current?: IIssueLinkType) {
  const directed = fields.directed ?? current?.directed ?? false;
  const outwardName = fields.outwardName ?? current?.outwardName;
  if (!outwardName) throw DomainError.invalid('outwardName', 'is required');
  // The inward name "is not used for non-directed links": it mirrors the outward one.
  const inwardName = directed ? (fields.inwardName ?? current?.inwardName ?? '') : outwardName;
  if (directed && !inwardName)
    throw DomainError.invalid('inwardName', 'is required for a directed link type');
  if (directed && current && !current.directed && !fields.inwardName) {
    throw DomainError.invalid('inwardName', 'is required when making a link type directed');
  }
  return {
    outwardName,
    inwardName,
    directed,
    aggregation: fields.aggregation ?? current?.aggregation ?? false,
  };
}

export async function createLinkType(em: Em, actor: Actor, name: string, fields: LinkTypeFields) {
  requirePermission(actor, 'UPDATE_ISSUE_LINK_TYPE', undefined, WHAT);
  const values = resolveNames(fields);
  // One read for both checks: a type of this name created concurrently (PostgreSQL) is then
  // reported as existing, not as the owner of the link names.
  const all = await em.find(IssueLinkType, {});
  if (all.some((t) => t.nameKey === name.toLowerCase())) {
    throw DomainError.alreadyExists('Issue link type', name);
  }
  assertLinkNamesFree(all, [values.outwardName, values.inwardName]);
  try {
    const type = em.create(IssueLinkType, { name, nameKey: name.toLowerCase(), ...values });
    await em.flush();
    return type;
  } catch (error) {
    if (isUniqueViolation(error)) throw DomainError.alreadyExists('Issue link type', name);
    throw error;
  }
}

export async function updateLinkType(
  em: Em,
  actor: Actor,
  name: string,
  fields: LinkTypeFields & { newName?: string | undefined },
) {
  requirePermission(actor, 'UPDATE_ISSUE_LINK_TYPE', undefined, WHAT);
  const type = await getLinkType(em, name);
  const values = resolveNames(fields, type);
  const others = await em.find(IssueLinkType, { id: { $ne: type.id } });
  if (fields.newName && others.some((t) => t.nameKey === fields.newName?.toLowerCase())) {
    throw DomainError.alreadyExists('Issue link type', fields.newName);
  }
  assertLinkNamesFree(others, [values.outwardName, values.inwardName]);
  if (fields.newName) Object.assign(type, { name: fields.newName, nameKey: fields.newName.toLowerCase() });
  Object.assign(type, values);
  try {
    await em.flush();
  } catch (error) {
    if (isUniqueViolation(error)) throw DomainError.alreadyExists('Issue link type', fields.newName ?? name);
    throw error;
  }
  return type;
}

/** Deletes the type and every link of that type in one transaction. */
export async function deleteLinkType(em: Em, actor: Actor, name: string): Promise<string> {
  requirePermission(actor, 'UPDATE_ISSUE_LINK_TYPE', undefined, WHAT);
  return em.transactional(async (tx) => {
    const type = await getLinkType(tx, name);
    await tx.nativeDelete(IssueLink, { type: type.id });
    await tx.nativeDelete(IssueLinkType, { id: type.id });
    return `Issue link type [ ${type.name} ] was successfully deleted.`;
  });
}
