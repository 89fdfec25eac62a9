import { type Actor, can, holdsInScope, inGroup } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { Group, type IGroup } from '../model/group.entity.js';
import type { Em } from '../orm/em.js';
import { hasFormatCharacters, normalizeSpacing } from '../text/user-text.js';

/**
 * Group names are stored normalised (NFC, each run of Unicode whitespace one space, trimmed) and
 * compared by their lower-cased form, so `All\u00A0Users` or `All  Users` is the group All
 * Users, never a second group that looks the same in a list. Invisible formatting characters
 * (bidi overrides, zero-width characters) are refused: they would make look-alikes too.
 */
export const normalizeGroupName = (name: string): string => normalizeSpacing(name);
export const groupNameKey = (name: string): string => normalizeGroupName(name).toLowerCase();

/** A new or changed group name, as stored; `field` names the input in the 400. */
export function storableGroupName(name: string, field: string): string {
  const normalized = normalizeGroupName(name);
  if (!normalized) throw DomainError.invalid(field, 'must not be empty');
  if (normalized.length > 100) throw DomainError.invalid(field, 'must be at most 100 characters');
  if (hasFormatCharacters(normalized))
    throw DomainError.invalid(field, 'must not contain invisible formatting characters');
  return normalized;
}

/** The group named `name` in any spelling that normalises alike, or null. */
export const findGroupByName = (em: Em, name: string): Promise<IGroup | null> =>
  em.findOne(Group, { nameKey: groupNameKey(name) });

/**
 * Whether the actor may name the group to restrict what it writes in `projectIds` (an issue's
 * `permittedGroup`, a comment's `group`, `visible to`): a group it belongs to, or any with
 * READ_USERGROUP, granted globally or in each of those projects (Project Admin carries it). Every
 * other group answers as an unknown one, so group names cannot be probed.
 */
export function canUseGroup(actor: Actor, groupId: number, projectIds: readonly number[] = []): boolean {
  if (can(actor, 'READ_USERGROUP') || inGroup(actor, groupId)) return true;
  return projectIds.length > 0 && projectIds.every((id) => holdsInScope(actor, 'READ_USERGROUP', id));
}

/**
 * Groups stored before names were normalised get their normalised name and key (at every
 * start, from the seed). One whose normalised key is taken by another group keeps both
 * apart under `Name (id)`, visible to administrators, rather than becoming unreachable by name.
 */
export async function normalizeStoredGroupNames(em: Em): Promise<void> {
  const groups = await em.find(Group, {}, { orderBy: { id: 'asc' } });
  const taken = new Set(groups.map((g) => g.nameKey));
  for (const group of groups) {
    const name = normalizeGroupName(group.name) || `group ${group.id}`;
    if (name === group.name && name.toLowerCase() === group.nameKey) continue;
    taken.delete(group.nameKey);
    const unique = taken.has(name.toLowerCase()) ? `${name} (${group.id})` : name;
    Object.assign(group, { name: unique, nameKey: unique.toLowerCase() });
    taken.add(group.nameKey);
  }
  await em.flush();
}
