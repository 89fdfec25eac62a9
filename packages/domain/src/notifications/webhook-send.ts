import { createHmac } from 'node:crypto';
import type { UserType } from '@trackline/contracts';
import { sql } from 'kysely';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareRead, prepareWrite } from '../orm/typed-query.js';
import type { Claim } from './claims.js';
import type { RenderContext, RenderedPart } from './render.js';
import { type ActorMemo, actorOf } from './send-email.js';

/** The body of a delivery (docs/notifications.md, "Webhook payload"; `ZWebhookPayload` in the contracts). */
export type WebhookPayload = {
  delivery: string;
  webhook: string;
  event: { id: number; kinds: string[]; createdAt: number };
  issue: { id: string; summary: string; url: string };
  author: { login: string; fullName: string };
  parts: RenderedPart[];
};

/**
 * The signature header's value: HMAC-SHA256 with the hook's secret over `<timestamp>.<body>`
 * (the timestamp is `X-Trackline-Timestamp`, seconds since the epoch), hex, prefixed `sha256=`.
 * A receiver recomputes it over the raw body and refuses an old timestamp (a replay).
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type WebhookRequest = { url: string; headers: Record<string, string>; body: string };
export type WebhookTransport = {
  /** POSTs once (no redirect followed, within a timeout): the status, or a rejection (refused address, network). */
  post(request: WebhookRequest): Promise<{ status: number }>;
  baseUrl: string;
};

export type WebhookRetryOptions = {
  /** The wait after the first failure; doubles after each (at most an hour). */
  firstRetryMs: number;
  /** How long a delivery is retried before it fails and its hook is disabled. */
  retryForMs: number;
  /** Whether the owner of a disabled hook can be told by e-mail too (TRACKLINE_SMTP_URL). */
  email: boolean;
};

const deliveryQuery = prepareRead((param: Param<{ id: number; token: string }>) =>
  tables
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('users as o', 'o.id', 'w.owner_id')
    .innerJoin('notification_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'd.payload',
      'd.first_attempt_at',
      'w.id as webhook_id',
      'w.name',
      'w.url',
      'w.secret',
      'w.kinds',
      'o.id as owner_id',
      'o.login as owner_login',
      'o.type as owner_type',
      'e.kinds as event_kinds',
      'e.created_at',
    ])
    .where('d.id', '=', param('id'))
    .where('d.claim_token', '=', param('token')),
);
const priorAttempts = prepareRead((param: Param<{ id: number }>) =>
  tables.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', param('id')).limit(1),
);
const attemptInsert = prepareWrite(
  (
    param: Param<{
      id: number;
      at: number;
      status: number | null;
      error: string | null;
      ms: number;
      again: boolean;
    }>,
  ) =>
    tables.insertInto('webhook_attempts').values({
      delivery_id: param('id'),
      at: param('at'),
      status_code: param('status'),
      error: param('error'),
      duration_ms: param('ms'),
      redelivery: param('again'),
    }),
);
const setPayload = prepareWrite((param: Param<{ id: number; token: string; payload: string; at: number }>) =>
  tables
    .updateTable('webhook_deliveries')
    .set({ payload: param('payload'), first_attempt_at: param('at') })
    .where('id', '=', param('id'))
    .where('claim_token', '=', param('token')),
);
const finish = prepareWrite(
  (
    param: Param<{
      id: number;
      token: string;
      status: 'delivered' | 'failed' | 'skipped';
      at: number | null;
      code: number | null;
      error: string | null;
    }>,
  ) =>
    tables
      .updateTable('webhook_deliveries')
      .set({
        status: param('status'),
        delivered_at: param('at'),
        last_status: param('code'),
        last_error: param('error'),
        claim_token: null,
      })
      .where('id', '=', param('id'))
      .where('claim_token', '=', param('token')),
);
const retry = prepareWrite(
  (param: Param<{ id: number; token: string; until: number; code: number | null; error: string }>) =>
    tables
      .updateTable('webhook_deliveries')
      .set({
        status: sql.lit('pending'),
        lease_until: param('until'),
        last_status: param('code'),
        last_error: param('error'),
        claim_token: null,
      })
      .where('id', '=', param('id'))
      .where('claim_token', '=', param('token')),
);
const disableHook = prepareWrite((param: Param<{ id: number; reason: string }>) =>
  tables
    .updateTable('webhooks')
    .set({ enabled: sql.lit(false), disabled_reason: param('reason') })
    .where('id', '=', param('id'))
    .where('enabled', '=', sql.lit(true)),
);
const systemMessage = prepareWrite(
  (
    param: Param<{
      userId: number;
      channel: 'email' | 'inapp';
      system: string;
      status: 'pending' | 'sent';
      at: number;
    }>,
  ) =>
    tables.insertInto('notification_messages').values({
      user_id: param('userId'),
      channel: param('channel'),
      system: param('system'),
      status: param('status'),
      created_at: param('at'),
      sent_at: param('at'),
    }),
);
const ownerEmailQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .select(['u.email', 's.email_mode'])
    .where('u.id', '=', param('id')),
);

/** Tells the owner their hook was disabled: in their inbox, and by e-mail unless they switched e-mail off. */
async function tellOwner(em: Em, ownerId: number, name: string, reason: string, email: boolean) {
  const system = JSON.stringify({
    subject: `Webhook ${name} was disabled`,
    text: `The webhook ${name} kept failing and was disabled: ${reason}. Enable it again in Administration › Webhooks (its failed deliveries can be redelivered there).`,
  });
  const at = Date.now();
  await systemMessage.run(em, { userId: ownerId, channel: 'inapp', system, status: 'sent', at });
  const owner = await ownerEmailQuery.first(em, { id: ownerId });
  if (email && owner?.email && owner.email_mode !== 'off')
    await systemMessage.run(em, { userId: ownerId, channel: 'email', system, status: 'pending', at });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * Delivers claimed webhook deliveries: the payload is built at the first attempt as the hook's
 * owner may read it (none: `skipped`), stored, and sent again byte for byte at every retry with a
 * fresh timestamp and signature. A 2xx answer delivers it; anything else (a status, a refused
 * address, a timeout) is retried with exponential backoff until `retryForMs` after the first
 * attempt, when it fails and its hook is disabled and its owner told. The delivery id is the
 * receiver's idempotency key (`X-Trackline-Delivery`).
 */
export async function sendWebhooks(
  em: Em,
  claims: Claim[],
  transport: WebhookTransport,
  ctx: RenderContext,
  actors: ActorMemo,
  options: WebhookRetryOptions & { afterSend?: (() => void | Promise<void>) | undefined },
): Promise<number> {
  let delivered = 0;
  await Promise.all(
    claims.map(async (claim) => {
      const row = await deliveryQuery.first(em, claim);
      if (!row) return;
      const now = Date.now();
      let payload = row.payload;
      if (payload === null) {
        const owner = await actorOf(em, actors, {
          id: Number(row.owner_id),
          login: row.owner_login,
          type: row.owner_type as UserType,
        });
        const eventId = Number(row.event_id);
        await ctx.load([eventId]);
        const rendered = await ctx.render(owner, [eventId]);
        const change = rendered?.access === 'readable' ? rendered.changes[0] : undefined;
        const wanted = new Set(row.kinds.split(','));
        const parts = change?.parts.filter((p) => wanted.has(p.kind)) ?? [];
        if (!rendered || !change || parts.length === 0) {
          await finish.run(em, {
            ...claim,
            status: 'skipped',
            at: null,
            code: null,
            error: 'nothing the owner may read',
          });
          return;
        }
        const body: WebhookPayload = {
          delivery: String(row.id),
          webhook: row.name,
          event: {
            id: eventId,
            kinds: [...new Set(parts.map((p) => p.kind))],
            createdAt: Number(row.created_at),
          },
          issue: {
            id: rendered.issue.id,
            summary: rendered.issue.summary,
            url: `${transport.baseUrl}/issue/${encodeURIComponent(rendered.issue.id)}`,
          },
          author: change.author,
          parts,
        };
        payload = JSON.stringify(body);
      }
      // The first attempt (or the first after a redelivery) starts the retry period.
      if (row.first_attempt_at === null) await setPayload.run(em, { ...claim, payload, at: now });
      const again =
        row.first_attempt_at === null && (await priorAttempts.first(em, { id: Number(row.id) })) !== null;
      const firstAttempt = row.first_attempt_at === null ? now : Number(row.first_attempt_at);
      const timestamp = Math.floor(now / 1000);
      const kinds = (JSON.parse(payload) as WebhookPayload).event.kinds.join(',');
      const started = performance.now();
      let status: number | null = null;
      let error: string | null = null;
      try {
        status = (
          await transport.post({
            url: row.url,
            body: payload,
            headers: {
              'Content-Type': 'application/json',
              'User-Agent': 'Trackline-Webhooks/1',
              'X-Trackline-Delivery': String(row.id),
              'X-Trackline-Event': kinds,
              'X-Trackline-Timestamp': String(timestamp),
              'X-Trackline-Signature': signWebhook(row.secret, timestamp, payload),
            },
          })
        ).status;
        if (status < 200 || status > 299) error = `answered ${status}`;
      } catch (failure) {
        error = errorText(failure);
      }
      await options.afterSend?.();
      const ms = Math.round(performance.now() - started);
      await attemptInsert.run(em, { id: Number(row.id), at: now, status, error, ms, again });
      if (error === null) {
        await finish.run(em, { ...claim, status: 'delivered', at: Date.now(), code: status, error: null });
        delivered++;
        return;
      }
      const delay = Math.min(3_600_000, options.firstRetryMs * 2 ** Math.max(0, claim.attempts - 1));
      if (Date.now() + delay <= firstAttempt + options.retryForMs) {
        await retry.run(em, { ...claim, until: Date.now() + delay, code: status, error });
        return;
      }
      await finish.run(em, { ...claim, status: 'failed', at: null, code: status, error });
      const reason = `delivery ${row.id} failed for ${Math.round(options.retryForMs / 60_000)} minutes (${error})`;
      if ((await disableHook.run(em, { id: Number(row.webhook_id), reason })) > 0)
        await tellOwner(em, Number(row.owner_id), row.name, reason, options.email);
    }),
  );
  return delivered;
}
