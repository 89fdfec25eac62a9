import type { NotificationChannel } from '@trackline/contracts';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, perLength, prepareRead, prepareWrite, readQuery } from '../orm/typed-query.js';
import { LeaseLost } from './fan-out.js';

/** The deliveries of one group waiting for their message. */
export type WaitingGroup = {
  key: string;
  userId: number;
  channel: NotificationChannel;
  digest: boolean;
  /** Null for a digest e-mail (several issues). */
  issueId: number | null;
  deliveryIds: number[];
  eventIds: number[];
};

/** Groups whose first delivery is due (the merge window or digest period is over), oldest first. */
export async function dueGroupKeys(em: Em, now: number, max: number): Promise<string[]> {
  const rows = await readQuery(
    em,
    tables
      .selectFrom('notification_deliveries')
      .select('group_key')
      .where('message_id', 'is', null)
      .groupBy('group_key')
      .having((eb) => eb.fn.min('due_at'), '<=', now)
      .orderBy((eb) => eb.fn.min('due_at'))
      .limit(max),
  );
  return rows.map((r) => r.group_key);
}

const waitingQuery = prepareRead((param: Param<{ key: string }>) =>
  tables
    .selectFrom('notification_deliveries')
    .select(['id', 'event_id', 'user_id', 'channel', 'issue_id', 'digest'])
    .where('group_key', '=', param('key'))
    .where('message_id', 'is', null)
    .orderBy('id'),
);

/** What waits in one group now (null: another worker took it meanwhile). */
export async function waitingGroup(em: Em, key: string): Promise<WaitingGroup | null> {
  const rows = await waitingQuery.all(em, { key });
  const first = rows[0];
  if (!first) return null;
  const digest = toBool(first.digest);
  return {
    key,
    userId: Number(first.user_id),
    channel: first.channel,
    digest,
    issueId: digest && first.channel === 'email' ? null : Number(first.issue_id),
    deliveryIds: rows.map((r) => Number(r.id)),
    eventIds: [...new Set(rows.map((r) => Number(r.event_id)))],
  };
}

const messageInsert = prepareWrite(
  (
    param: Param<{
      userId: number;
      channel: NotificationChannel;
      digest: boolean;
      issueId: number | null;
      status: 'pending' | 'sent' | 'skipped';
      at: number;
      sentAt: number | null;
      system: string | null;
    }>,
  ) =>
    tables
      .insertInto('notification_messages')
      .values({
        user_id: param('userId'),
        channel: param('channel'),
        digest: param('digest'),
        issue_id: param('issueId'),
        status: param('status'),
        created_at: param('at'),
        sent_at: param('sentAt'),
        system: param('system'),
      })
      .returning('id'),
);
const takeDeliveries = perLength((count) =>
  prepareWrite((param: Param<{ message: number; ids: number[] }>) =>
    tables
      .updateTable('notification_deliveries')
      .set({ message_id: param('message') })
      .where('id', 'in', param.list('ids', count))
      .where('message_id', 'is', null)
      .returning('id'),
  ),
);

/**
 * Makes the group's message and gives it the group's deliveries, in one transaction: each
 * delivery goes into exactly one message. When another worker took them all first, nothing is
 * made. E-mails wait as `pending` for the sender; an inbox entry is `sent` (or `skipped` when the
 * reader may see nothing of it) at once. Returns the message id.
 */
export async function makeMessage(
  em: Em,
  group: WaitingGroup,
  status: 'pending' | 'sent' | 'skipped',
  now = Date.now(),
  /** A message that says only this (an inbox entry about an issue the reader lost sight of). */
  system: { subject: string; text: string } | null = null,
): Promise<number | null> {
  try {
    return await inTransaction(em, async (tx) => {
      const [row] = await messageInsert.returning(tx as Em, {
        userId: group.userId,
        channel: group.channel,
        digest: group.digest,
        issueId: group.issueId,
        status,
        at: now,
        sentAt: status === 'pending' ? null : now,
        system: system ? JSON.stringify(system) : null,
      });
      const message = Number(row?.id);
      let taken = 0;
      for (let i = 0; i < group.deliveryIds.length; i += 500) {
        const ids = group.deliveryIds.slice(i, i + 500);
        taken += (await takeDeliveries(ids.length).returning(tx as Em, { message, ids })).length;
      }
      if (taken === 0) throw new LeaseLost();
      return message;
    });
  } catch (error) {
    if (error instanceof LeaseLost) return null;
    throw error;
  }
}

const messageEventsQuery = prepareRead((param: Param<{ message: number }>) =>
  tables
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_events as e', 'e.id', 'd.event_id')
    .select(['d.event_id', 'e.issue_id'])
    .where('d.message_id', '=', param('message'))
    .orderBy('d.event_id'),
);

/** The events a message holds, by issue (in the order of their first change). */
export async function messageEvents(em: Em, messageId: number): Promise<Map<number, number[]>> {
  const byIssue = new Map<number, number[]>();
  for (const r of await messageEventsQuery.all(em, { message: messageId })) {
    const issue = Number(r.issue_id);
    byIssue.set(issue, [...(byIssue.get(issue) ?? []), Number(r.event_id)]);
  }
  return byIssue;
}
