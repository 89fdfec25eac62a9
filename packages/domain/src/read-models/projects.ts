import { type Actor, projectsWith } from '../auth/actor.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { prepareRead, readQuery } from '../orm/typed-query.js';

/** The project list read model: what lists of projects show, without hydrating entities. */
export type ProjectListItem = {
  id: number;
  shortName: string;
  shortNameKey: string;
  name: string;
  nameKey: string;
  description: string;
};

const COLUMNS = ['id', 'short_name', 'short_name_key', 'name', 'name_key', 'description'] as const;
const projects = () => tables.selectFrom('projects').select(COLUMNS).orderBy('short_name_key');
const liveQuery = prepareRead(() => projects().where('deleted_at', 'is', null));
const everyQuery = prepareRead(() => projects());

/** Up to this many ids are asked for by id; more, and the (short) table is read whole and filtered. */
const MAX_IN = 50;

async function everyOf(em: Em, wanted: ReadonlySet<number>) {
  return (await everyQuery.all(em, {})).filter((r) => wanted.has(Number(r.id)));
}

/** Live projects the actor may read (READ_PROJECT globally or in the project), by short name. */
export async function readableProjects(em: Em, actor: Actor): Promise<ProjectListItem[]> {
  const ids = projectsWith(actor, 'READ_PROJECT');
  if (ids !== 'all' && ids.length === 0) return [];
  const rows =
    ids === 'all'
      ? await liveQuery.all(em, {})
      : ids.length <= MAX_IN
        ? await readQuery(em, projects().where('id', 'in', ids))
        : await everyOf(em, new Set(ids));
  return rows.map((r) => ({
    id: Number(r.id),
    shortName: r.short_name,
    shortNameKey: r.short_name_key,
    name: r.name,
    nameKey: r.name_key,
    description: r.description,
  }));
}
