import type { UserType } from '@trackline/contracts';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { type Param, prepareRead } from '../orm/typed-query.js';
import { createPollingLoop } from '../polling/polling-loop.js';
import { dueGroupKeys, makeMessage, waitingGroup } from './assemble.js';
import { claimBatch } from './claims.js';
import { fanOutEvent } from './fan-out.js';
import { RenderContext } from './render.js';
import { type ActorMemo, actorOf, type EmailTransport, sendEmails } from './send-email.js';
import { sendWebhooks, type WebhookRetryOptions, type WebhookTransport } from './webhook-send.js';

export type NotificationWorkerOptions = {
  /** How often an idle worker looks for work. */
  pollMs?: number;
  /** How long a claim holds before another worker (process) may take the row over. */
  leaseMs?: number;
  /** Changes by one author to one issue within this window make one message (default 60 s). */
  mergeWindowMs?: number;
  /** The SMTP side (apps/api); without it no e-mail is queued or sent. */
  email?: EmailTransport | undefined;
  /** The outgoing HTTP side (apps/api); without it webhook deliveries wait. */
  webhooks?: (WebhookTransport & Partial<Omit<WebhookRetryOptions, 'email'>>) | undefined;
  /** Sends of one message before it fails (default 8). */
  maxEmailAttempts?: number;
  logError?: (error: unknown) => void;
  /** As the VCS worker's (`polling/polling-loop.ts`): while requests are in flight, keep to `share` of the time. */
  busy?: () => boolean;
  share?: number;
  maxDeferMs?: number;
  /** The clock deciding what is due (tests move it past a merge window or a digest period). */
  now?: () => number;
  /** Crash drills: called right after an SMTP server accepted a message or a receiver answered, before it is recorded. */
  afterSend?: () => void | Promise<void>;
};

export type NotificationWorker = {
  start(): void;
  stop(): Promise<void>;
  /** Runs every stage until none has anything to do now (tests, benchmarks); how many rows were taken. */
  runUntilIdle(): Promise<number>;
};

/** Groups assembled side by side (see `assemble`). */
const ASSEMBLE_AT_ONCE = 16;

const userQuery = prepareRead((param: Param<{ id: number }>) =>
  tables.selectFrom('users').select(['id', 'login', 'type']).where('id', '=', param('id')),
);

/**
 * The notification outbox's worker, one in every server process (docs/notifications.md): turns
 * events into deliveries (fan-out), due deliveries into messages (the merge window, digests),
 * and sends e-mails and webhook deliveries. Every queue is claimed with leases, so any number
 * of processes share the work and a process killed at any point leaves its rows to another after
 * the lease; the unique ledger of (event, recipient, channel) and the deterministic Message-ID
 * make each message once. It runs beside requests, never in them: a command writes one event row.
 */
export function createNotificationWorker(
  orm: Orm,
  options: NotificationWorkerOptions = {},
): NotificationWorker {
  const pollMs = options.pollMs ?? 200;
  const leaseMs = options.leaseMs ?? 30_000;
  const mergeWindowMs = options.mergeWindowMs ?? 60_000;
  const logError = options.logError ?? console.error;
  const now = options.now ?? Date.now;
  const retry: WebhookRetryOptions = {
    firstRetryMs: options.webhooks?.firstRetryMs ?? 10_000,
    retryForMs: options.webhooks?.retryForMs ?? 86_400_000,
    email: options.email !== undefined,
  };
  const loop = createPollingLoop({
    step,
    pollMs,
    logError,
    busy: options.busy,
    share: options.share,
    maxDeferMs: options.maxDeferMs,
  });
  const pause = loop.pause;

  async function fanOut(em: Em): Promise<number> {
    const claims = await claimBatch(em, 'events', leaseMs, 20);
    for (const claim of claims) {
      try {
        await fanOutEvent(em, claim, { mergeWindowMs, email: options.email !== undefined });
      } catch (error) {
        logError(error);
      }
      await pause();
    }
    return claims.length;
  }

  /** Makes one group's message (an inbox entry is rendered now: kept only when the reader may see something of it). */
  async function assembleGroup(em: Em, ctx: RenderContext, actors: ActorMemo, key: string): Promise<boolean> {
    const group = await waitingGroup(em, key);
    if (!group) return false;
    let status: 'pending' | 'sent' | 'skipped' = 'pending';
    let system: { subject: string; text: string } | null = null;
    if (group.channel === 'inapp') {
      const user = await userQuery.first(em, { id: group.userId });
      await ctx.load(group.eventIds);
      const reader = user
        ? await actorOf(em, actors, { id: Number(user.id), login: user.login, type: user.type as UserType })
        : null;
      const rendered = reader ? await ctx.render(reader, group.eventIds) : null;
      status = rendered ? 'sent' : 'skipped';
      // The inbox lists only readable issues: the news that one is hidden now comes as a note.
      if (rendered?.access === 'lost') {
        const subject = `${rendered.issue.id} is no longer visible to you`;
        system = { subject, text: `${subject}: its visibility was changed.` };
      }
    }
    return (await makeMessage(em, group, status, now(), system)) !== null;
  }

  /**
   * Due groups into messages, several at once: on PostgreSQL each waits on round trips (its reads,
   * its transaction), which run side by side on the pool's connections; SQLite runs them in turn.
   */
  async function assemble(em: Em, ctx: RenderContext, actors: ActorMemo): Promise<number> {
    const keys = await dueGroupKeys(em, now(), 200);
    let made = 0;
    for (let i = 0; i < keys.length; i += ASSEMBLE_AT_ONCE) {
      const results = await Promise.all(
        keys.slice(i, i + ASSEMBLE_AT_ONCE).map((key) =>
          assembleGroup(em, ctx, actors, key).catch((error: unknown) => {
            logError(error);
            return false;
          }),
        ),
      );
      made += results.filter(Boolean).length;
      await pause();
    }
    return made;
  }

  async function step(): Promise<number> {
    const em = orm.em.fork() as Em;
    // One snapshot of what messages need, and of the readers' permissions, per step.
    const ctx = new RenderContext(em);
    const actors: ActorMemo = new Map();
    let work = await fanOut(em);
    work += await assemble(em, ctx, actors);
    if (options.email) {
      const claims = await claimBatch(em, 'messages', leaseMs, 50);
      if (claims.length) {
        await sendEmails(em, claims, options.email, ctx, actors, {
          maxAttempts: options.maxEmailAttempts ?? 8,
          logError,
          afterSend: options.afterSend,
        });
        work += claims.length;
      }
    }
    if (options.webhooks) {
      const claims = await claimBatch(em, 'webhooks', leaseMs, 50);
      if (claims.length) {
        await sendWebhooks(em, claims, options.webhooks, ctx, actors, {
          ...retry,
          afterSend: options.afterSend,
        });
        work += claims.length;
      }
    }
    return work;
  }

  return { start: loop.start, stop: loop.stop, runUntilIdle: loop.runUntilIdle };
}
