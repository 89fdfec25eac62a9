import type { Em } from '../../orm/em.js';
import { placeholders } from '../../orm/sql-fragments.js';
import { runStatement } from '../../orm/statements.js';
import type { LinkKey } from '../command-state.js';

const issuesOf = (key: LinkKey) => key.split(':').map(Number) as [number, number, number];

/**
 * Records the links a command added and removed, on both issues of each, with the phrase as read
 * from each side (`depends on` on the source, `is required for` on the target). Links of issues
 * the command deleted are not recorded (their events would go with them).
 */
export async function recordLinkEvents(
  em: Em,
  change: {
    actorId: number;
    at: unknown;
    added: LinkKey[];
    removed: LinkKey[];
    deleted: ReadonlySet<number>;
  },
): Promise<void> {
  const keys = [
    ...change.added.map((key) => ({ key, kind: 'link-added' })),
    ...change.removed.map((key) => ({ key, kind: 'link-removed' })),
  ].filter(
    ({ key }) =>
      !issuesOf(key)
        .slice(1)
        .some((id) => change.deleted.has(id)),
  );
  if (keys.length === 0) return;
  const typeIds = [...new Set(keys.map(({ key }) => issuesOf(key)[0]))];
  const types = await em.execute<{ id: number; outward_name: string; inward_name: string }[]>(
    `select id, outward_name, inward_name from issue_link_types where id in (${placeholders(typeIds)})`,
    typeIds,
  );
  const byId = new Map(types.map((t) => [Number(t.id), t]));
  const rows: unknown[][] = [];
  for (const { key, kind } of keys) {
    const [type, source, target] = issuesOf(key);
    const names = byId.get(type);
    if (!names) continue;
    rows.push([source, change.actorId, change.at, kind, target, names.outward_name, null]);
    rows.push([target, change.actorId, change.at, kind, source, names.inward_name, null]);
  }
  await insertEvents(em, rows);
}

/** Records the tags a command put on or took off one issue. */
export async function recordTagEvents(
  em: Em,
  change: { actorId: number; at: unknown; issueId: number; added: number[]; removed: number[] },
): Promise<void> {
  const rows = [
    ...change.added.map((tag) => [change.issueId, change.actorId, change.at, 'tag-added', null, null, tag]),
    ...change.removed.map((tag) => [
      change.issueId,
      change.actorId,
      change.at,
      'tag-removed',
      null,
      null,
      tag,
    ]),
  ];
  await insertEvents(em, rows);
}

async function insertEvents(em: Em, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  await runStatement(
    em,
    'insert into issue_events (issue_id, actor_id, at, kind, other_issue_id, phrase, tag_id) values ' +
      rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', '),
    rows.flat(),
  );
}
