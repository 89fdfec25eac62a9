import type { NotificationChannel, NotificationEventKind } from '@trackline/contracts';
import { sql } from 'kysely';
import type { IssueEventPart } from '../issues/history/issue-events.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { runStatement } from '../orm/statements.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, prepareRead, prepareWrite } from '../orm/typed-query.js';
import type { Claim } from './claims.js';
import { candidateRecipients } from './recipients.js';
import { loadRecipients } from './settings.js';

export type FanOutOptions = {
  /** How long changes by one author are gathered into one message (ms). */
  mergeWindowMs: number;
  /** Whether e-mail can be sent at all (TRACKLINE_SMTP_URL): without it no e-mail is queued. */
  email: boolean;
};

const eventQuery = prepareRead((param: Param<{ id: number; token: string }>) =>
  tables
    .selectFrom('notification_events')
    .select(['id', 'issue_id', 'project_id', 'author_id', 'kinds', 'payload', 'quiet', 'created_at'])
    .where('id', '=', param('id'))
    .where('claim_token', '=', param('token')),
);
const eventDone = prepareWrite((param: Param<{ id: number; token: string }>) =>
  tables
    .updateTable('notification_events')
    .set({ status: sql.lit('done'), lease_until: null, claim_token: null })
    .where('id', '=', param('id'))
    .where('claim_token', '=', param('token')),
);
/**
 * The hooks that want an event of this project: disabled ones too (their deliveries wait, and
 * go when the hook is enabled again; the claim takes only an enabled hook's).
 */
const hooksQuery = prepareRead((param: Param<{ projectId: number }>) =>
  tables
    .selectFrom('webhooks as w')
    .select(['w.id', 'w.kinds'])
    .where((eb) =>
      eb.or([
        eb.not(
          eb.exists(
            eb.selectFrom('webhook_projects as a').select('a.id').whereRef('a.webhook_id', '=', 'w.id'),
          ),
        ),
        eb.exists(
          eb
            .selectFrom('webhook_projects as b')
            .select('b.id')
            .whereRef('b.webhook_id', '=', 'w.id')
            .where('b.project_id', '=', param('projectId')),
        ),
      ]),
    ),
);

type DeliveryRow = {
  event_id: number;
  user_id: number;
  channel: NotificationChannel;
  group_key: string;
  issue_id: number;
  digest: boolean;
  due_at: number;
};

/** Inserts rows that are not there yet (the unique (event, user, channel) makes a retry harmless). */
async function insertDeliveries(em: Em, rows: DeliveryRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    const q = tables
      .insertInto('notification_deliveries')
      .values(chunk)
      .onConflict((oc) => oc.columns(['event_id', 'user_id', 'channel']).doNothing())
      .compile();
    await runStatement(em, q.sql, q.parameters);
  }
}

/**
 * Turns one claimed event into its deliveries: one per (recipient, channel) the recipient keeps
 * on, due when the merge window (or their digest period) after the change ends, and one per
 * webhook that wants it. All in one transaction with the event's completion; a worker that dies
 * midway leaves the event claimable, and doing it again adds nothing twice (unique indexes).
 */
export async function fanOutEvent(em: Em, claim: Claim, options: FanOutOptions): Promise<boolean> {
  const event = await eventQuery.first(em, claim);
  if (!event) return false;
  const parts = JSON.parse(event.payload) as IssueEventPart[];
  const kinds = event.kinds.split(',') as NotificationEventKind[];
  const facts = {
    issueId: Number(event.issue_id),
    projectId: Number(event.project_id),
    authorId: Number(event.author_id),
    parts,
  };
  const at = Number(event.created_at);
  const rows: DeliveryRow[] = [];
  if (!event.quiet) {
    const candidates = await candidateRecipients(em, facts);
    for (const recipient of await loadRecipients(em, [...candidates.keys()])) {
      const { userId, settings } = recipient;
      if (userId === facts.authorId && !settings.ownChanges) continue;
      for (const channel of ['email', 'inapp'] as const) {
        const setting = settings[channel];
        if (setting.mode === 'off') continue;
        if (channel === 'email' && (!options.email || !recipient.email)) continue;
        const digest = setting.mode === 'digest';
        rows.push({
          event_id: Number(event.id),
          user_id: userId,
          channel,
          // A digest e-mail gathers every issue; an inbox digest, every change of one issue.
          group_key: digest
            ? channel === 'email'
              ? `d:email:${userId}`
              : `d:inapp:${userId}:${facts.issueId}`
            : `e:${channel}:${userId}:${facts.issueId}:${facts.authorId}`,
          issue_id: facts.issueId,
          digest,
          due_at: at + (digest ? setting.digestMinutes * 60_000 : options.mergeWindowMs),
        });
      }
    }
  }
  const hooks = (await hooksQuery.all(em, { projectId: facts.projectId })).filter((h) =>
    h.kinds.split(',').some((k) => kinds.includes(k as NotificationEventKind)),
  );
  let done = false;
  await inTransaction(em, async (tx) => {
    await insertDeliveries(tx as Em, rows);
    if (hooks.length) {
      const now = Date.now();
      const q = tables
        .insertInto('webhook_deliveries')
        .values(
          hooks.map((h) => ({
            webhook_id: Number(h.id),
            event_id: Number(event.id),
            created_at: now,
            lease_until: 0,
          })),
        )
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .compile();
      await runStatement(tx as Em, q.sql, q.parameters);
    }
    done = (await eventDone.run(tx as Em, claim)) > 0;
    // Our lease ran out and another worker has the event: leave it all to them.
    if (!done) throw new LeaseLost();
  }).catch((error: unknown) => {
    if (!(error instanceof LeaseLost)) throw error;
  });
  return done;
}

export class LeaseLost extends Error {
  constructor() {
    super('the claim was taken over');
  }
}
