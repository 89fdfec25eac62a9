import { tables } from '../../model/database.js';
import type { Em } from '../../orm/em.js';
import { perConnection, readEpochs } from '../../orm/epoch-cache.js';
import { type Param, perLength, prepareRead } from '../../orm/typed-query.js';

/**
 * What an issue's stored field values point at, by id: bundle values (name, resolved, colour,
 * order) and users (login, full name). A page of 50 issues names the same few dozen of them 150
 * times; joining each stored value to its row was two fifths of the page's field-values statement.
 *
 * Remembered per database and process under the epochs (`trackline_auth_epoch`): row 2 moves, in
 * the changing transaction, on every change of `field_values` and of users' logins and names
 * (migration 0013), whoever makes it. Ids are never reused (AUTOINCREMENT, serial). Read inside
 * a transaction, the remembered ones are used but nothing is kept (the epochs read there may be
 * the transaction's own), as `remembered` does.
 */

export type ValueFacts = { name: string; resolved: unknown; colorIndex: unknown; ordinal: unknown };
export type UserFacts = { login: string; fullName: string };
export type FieldValueLookups = {
  value: (id: number) => ValueFacts | undefined;
  user: (id: number) => UserFacts | undefined;
};
type Known = { epoch: string; values: Map<number, ValueFacts>; users: Map<number, UserFacts> };

/** Past this many entries of a kind, the remembered ones start again from none. */
const MAX_ENTRIES = 50_000;

const valuesQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('field_values')
      .select(['id', 'name', 'resolved', 'color_index', 'ordinal'])
      .where('id', 'in', param.list('ids', count)),
  ),
);
/** Login and full name of users by id (one prepared statement per number of ids). */
export const userFactsQuery = perLength((count) =>
  prepareRead((param: Param<{ ids: number[] }>) =>
    tables
      .selectFrom('users')
      .select(['id', 'login', 'full_name'])
      .where('id', 'in', param.list('ids', count)),
  ),
);

const known = perConnection<{ current?: Known }>(() => ({}));

export async function fieldValueLookups(
  em: Em,
  valueIds: ReadonlySet<number>,
  userIds: ReadonlySet<number>,
): Promise<FieldValueLookups> {
  const epoch = await readEpochs(em);
  const holder = known(em);
  const kept = holder.current?.epoch === epoch ? holder.current : undefined;
  const inTransaction = Boolean(em.getTransactionContext());
  // Inside a transaction: the remembered entries are read, new ones go to a copy that is dropped.
  const found: Known = kept && !inTransaction ? kept : { epoch, values: new Map(), users: new Map() };
  const missingValues = missing(valueIds, kept?.values, found.values);
  const missingUsers = missing(userIds, kept?.users, found.users);
  if (missingValues.length > 0) {
    const rows = await valuesQuery(missingValues.length).all(em, { ids: missingValues });
    if (found.values.size + rows.length > MAX_ENTRIES) found.values.clear();
    for (const r of rows)
      found.values.set(Number(r.id), {
        name: r.name,
        resolved: r.resolved,
        colorIndex: r.color_index,
        ordinal: r.ordinal,
      });
  }
  if (missingUsers.length > 0) {
    const rows = await userFactsQuery(missingUsers.length).all(em, { ids: missingUsers });
    if (found.users.size + rows.length > MAX_ENTRIES) found.users.clear();
    for (const r of rows) found.users.set(Number(r.id), { login: r.login, fullName: r.full_name });
  }
  if (!inTransaction) holder.current = found;
  return {
    value: (id) => found.values.get(id) ?? kept?.values.get(id),
    user: (id) => found.users.get(id) ?? kept?.users.get(id),
  };
}

/** Ids not among the remembered (`kept`) nor the newly found ones. */
function missing<T>(ids: ReadonlySet<number>, kept: Map<number, T> | undefined, found: Map<number, T>) {
  const out: number[] = [];
  for (const id of ids) if (!kept?.has(id) && !found.has(id)) out.push(id);
  return out;
}
