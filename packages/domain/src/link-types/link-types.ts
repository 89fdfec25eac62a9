import { type Actor, requirePermission } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import { DomainError } from '../errors.js';
import { IssueLink } from '../model/issue.entity.js';
import { type IIssueLinkType, IssueLinkType } from '../model/link-type.entity.js';
import type { Em } from '../orm/em.js';
import { inTransaction } from '../orm/transaction.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { assertNotCommandPhrase, commandPhrases, linkNameKey, normalizeLinkName } from './link-phrases.js';

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
  // Rows written before names were normalized keep their plain lower-cased key.
  const keys = [...new Set([linkNameKey(name), name.toLowerCase()])];
  const type = await em.findOne(IssueLinkType, { nameKey: { $in: keys } });
  if (!type) throw DomainError.notFound('Issue link type', name);
  return type;
}

/**
 * How many links of the type the actor can see: both ends issues it may read.
 * A count over every link would tell anyone how many links exist among issues they cannot read.
 */
export async function countLinkTypeUsages(em: Em, actor: Actor, name: string): Promise<number> {
  const type = await getLinkType(em, name);
  const source = readableIssuesSql(actor, 's');
  const target = readableIssuesSql(actor, 't');
  if (source === 'none' || target === 'none') return 0;
  const rows = await em.execute<{ n: number | string }[]>(
    'select count(*) as n from issue_links l join issues s on s.id = l.source_id ' +
      `join issues t on t.id = l.target_id where l.type_id = ? and ${source.sql} and ${target.sql}`,
    [type.id, ...source.params, ...target.params],
  );
  return Number(rows[0]?.n ?? 0);
}

/** New or changed phrases must not take over what commands already mean. */
async function assertPhrasesAreNotCommands(
  em: Em,
  values: { outwardName: string; inwardName: string },
  current?: IIssueLinkType,
) {
  const changed = (['outwardName', 'inwardName'] as const).filter(
    (field) => !current || linkNameKey(current[field]) !== linkNameKey(values[field]),
  );
  if (changed.length === 0) return;
  const reserved = await commandPhrases(em);
  for (const field of changed) assertNotCommandPhrase(reserved, field, values[field]);
}

/**
 * Link names are what commands are typed with (`relates to PRJ-1`), so a phrase may
 * belong to one link type only; the type's own outward and inward names may coincide.
 */
function assertLinkNamesFree(all: IIssueLinkType[], names: string[]) {
  for (const phrase of names) {
    const key = linkNameKey(phrase);
    const owner = all.find((t) => linkNameKey(t.outwardName) === key || linkNameKey(t.inwardName) === key);
    if (owner) {
      throw new DomainError(
        'ALREADY_EXISTS',
        `Link name [ ${phrase} ] is already used by issue link type [ ${owner.name} ].`,
      );
    }
  }
}

const normalized = (text: string | undefined) => (text === undefined ? undefined : normalizeLinkName(text));

function resolveNames(fields: LinkTypeFields, current?: IIssueLinkType) {
  const directed = fields.directed ?? current?.directed ?? false;
  const outwardName = normalized(fields.outwardName) ?? current?.outwardName;
  if (!outwardName) throw DomainError.invalid('outwardName', 'is required');
  // The inward name "is not used for non-directed links": it mirrors the outward one.
  const inwardName = directed ? (normalized(fields.inwardName) ?? current?.inwardName ?? '') : outwardName;
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

export async function createLinkType(em: Em, actor: Actor, rawName: string, fields: LinkTypeFields) {
  requirePermission(actor, 'UPDATE_ISSUE_LINK_TYPE', undefined, WHAT);
  const name = normalizeLinkName(rawName);
  const values = resolveNames(fields);
  await assertPhrasesAreNotCommands(em, values);
  // One read for both checks: a type of this name created concurrently (PostgreSQL) is then
  // reported as existing, not as the owner of the link names.
  const all = await em.find(IssueLinkType, {});
  if (all.some((t) => linkNameKey(t.name) === linkNameKey(name))) {
    throw DomainError.alreadyExists('Issue link type', name);
  }
  assertLinkNamesFree(all, [values.outwardName, values.inwardName]);
  return onUniqueViolation(
    async () => {
      const type = em.create(IssueLinkType, { name, nameKey: linkNameKey(name), ...values });
      await em.flush();
      return type;
    },
    rejectWith(() => DomainError.alreadyExists('Issue link type', name)),
  );
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
  await assertPhrasesAreNotCommands(em, values, type);
  const newName = normalized(fields.newName);
  const others = await em.find(IssueLinkType, { id: { $ne: type.id } });
  if (newName && others.some((t) => linkNameKey(t.name) === linkNameKey(newName))) {
    throw DomainError.alreadyExists('Issue link type', newName);
  }
  assertLinkNamesFree(others, [values.outwardName, values.inwardName]);
  if (newName) Object.assign(type, { name: newName, nameKey: linkNameKey(newName) });
  Object.assign(type, values);
  await onUniqueViolation(
    () => em.flush(),
    rejectWith(() => DomainError.alreadyExists('Issue link type', newName ?? name)),
  );
  return type;
}

/** Deletes the type and every link of that type in one transaction. */
export async function deleteLinkType(em: Em, actor: Actor, name: string): Promise<string> {
  requirePermission(actor, 'UPDATE_ISSUE_LINK_TYPE', undefined, WHAT);
  return inTransaction(em, async (tx) => {
    const type = await getLinkType(tx, name);
    await tx.nativeDelete(IssueLink, { type: type.id });
    await tx.nativeDelete(IssueLinkType, { id: type.id });
    return `Issue link type [ ${type.name} ] was successfully deleted.`;
  });
}
