import type { Actor } from '../auth/actor.js';
import { readableIssuesSql } from '../auth/issue-access.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, perLength, prepareWrite, readQuery, sqlCondition } from '../orm/typed-query.js';
import { messageEvents } from './assemble.js';
import { RenderContext, type RenderedIssue } from './render.js';

export type InboxEntry = {
  id: number;
  created: number;
  read: boolean;
  digest: boolean;
  /** A message about an issue (rendered for the reader now), or a message from the system. */
  issue: RenderedIssue | null;
  system: { subject: string; text: string } | null;
};

export const INBOX_PAGE = 50;

/**
 * The inbox's rows the reader may still see: notes (a hook disabled, an issue hidden from them
 * now), and messages about issues they read now (the readability SQL of `auth/issue-access.ts`, so a count never includes an issue
 * that became hidden).
 */
function inboxQuery(actor: Actor) {
  const readable = readableIssuesSql(actor, 'i');
  return tables
    .selectFrom('notification_messages as m')
    .leftJoin('issues as i', 'i.id', 'm.issue_id')
    .where('m.user_id', '=', actor.userId)
    .where('m.channel', '=', 'inapp')
    .where('m.status', '=', 'sent')
    .where((eb) =>
      readable === 'none'
        ? eb('m.system', 'is not', null)
        : eb.or([eb('m.system', 'is not', null), sqlCondition(readable)]),
    );
}

/** The caller's inbox, newest first (`unreadOnly`: only what they have not read). */
export async function listInbox(
  em: Em,
  actor: Actor,
  options: { unreadOnly?: boolean | undefined; before?: number | undefined; max?: number | undefined } = {},
): Promise<InboxEntry[]> {
  const max = Math.min(INBOX_PAGE, Math.max(1, options.max ?? INBOX_PAGE));
  let query = inboxQuery(actor)
    .select(['m.id', 'm.created_at', 'm.read_at', 'm.digest', 'm.system'])
    .orderBy('m.id', 'desc')
    .limit(max);
  if (options.unreadOnly) query = query.where('m.read_at', 'is', null);
  if (options.before !== undefined) query = query.where('m.id', '<', options.before);
  const rows = await readQuery(em, query);
  const ctx = new RenderContext(em);
  const out: InboxEntry[] = [];
  for (const r of rows) {
    const base = {
      id: Number(r.id),
      created: Number(r.created_at),
      read: r.read_at !== null,
      digest: Boolean(Number(r.digest)) || r.digest === true,
    };
    if (r.system) {
      out.push({ ...base, issue: null, system: JSON.parse(r.system) as InboxEntry['system'] });
      continue;
    }
    const events = [...(await messageEvents(em, base.id)).values()].flat();
    await ctx.load(events);
    const issue = await ctx.render(actor, events);
    // A part the reader may no longer see leaves the entry; an entry left with nothing goes.
    if (issue) out.push({ ...base, issue, system: null });
  }
  return out;
}

/** How many inbox entries the caller has not read (the bell). */
export async function unreadCount(em: Em, actor: Actor): Promise<number> {
  const [row] = await readQuery(
    em,
    inboxQuery(actor)
      .where('m.read_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  return Number(row?.n ?? 0);
}

const markSome = perLength((count) =>
  prepareWrite((param: Param<{ userId: number; at: number; ids: number[] }>) =>
    tables
      .updateTable('notification_messages')
      .set({ read_at: param('at') })
      .where('user_id', '=', param('userId'))
      .where('channel', '=', 'inapp')
      .where('read_at', 'is', null)
      .where('id', 'in', param.list('ids', count)),
  ),
);
const markAll = prepareWrite((param: Param<{ userId: number; at: number }>) =>
  tables
    .updateTable('notification_messages')
    .set({ read_at: param('at') })
    .where('user_id', '=', param('userId'))
    .where('channel', '=', 'inapp')
    .where('read_at', 'is', null),
);

/** Marks the caller's entries read (all of them when `ids` is absent); how many changed. Others' ids change nothing. */
export async function markInboxRead(em: Em, actor: Actor, ids?: readonly number[]): Promise<number> {
  const at = Date.now();
  if (ids === undefined) return markAll.run(em, { userId: actor.userId, at });
  const list = [...new Set(ids)].slice(0, 500);
  if (list.length === 0) return 0;
  return markSome(list.length).run(em, { userId: actor.userId, at, ids: list });
}
