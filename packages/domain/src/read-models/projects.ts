import { type Actor, projectsWith } from '../auth/actor.js';
import type { Em } from '../orm/em.js';
import { placeholders } from '../orm/sql-fragments.js';
import { readRows } from '../orm/statements.js';

/** The project list read model: what lists of projects show, without hydrating entities. */
export type ProjectListItem = {
  id: number;
  shortName: string;
  shortNameKey: string;
  name: string;
  nameKey: string;
  description: string;
};

type Row = {
  id: number;
  short_name: string;
  short_name_key: string;
  name: string;
  name_key: string;
  description: string;
};

const SELECT = 'select id, short_name, short_name_key, name, name_key, description from projects';
/** Up to this many ids are asked for by id; more, and the (short) table is read whole and filtered. */
const MAX_IN = 50;

/** Live projects the actor may read (READ_PROJECT globally or in the project), by short name. */
export async function readableProjects(em: Em, actor: Actor): Promise<ProjectListItem[]> {
  const ids = projectsWith(actor, 'READ_PROJECT');
  if (ids !== 'all' && ids.length === 0) return [];
  let rows: Row[];
  if (ids === 'all')
    rows = await readRows<Row>(em, `${SELECT} where deleted_at is null order by short_name_key`);
  else if (ids.length <= MAX_IN)
    rows = await readRows<Row>(
      em,
      `${SELECT} where id in (${placeholders(ids)}) order by short_name_key`,
      ids,
    );
  else {
    const wanted = new Set(ids);
    rows = (await readRows<Row>(em, `${SELECT} order by short_name_key`)).filter((r) =>
      wanted.has(Number(r.id)),
    );
  }
  return rows.map((r) => ({
    id: Number(r.id),
    shortName: r.short_name,
    shortNameKey: r.short_name_key,
    name: r.name,
    nameKey: r.name_key,
    description: r.description,
  }));
}
