import type { UserType } from '@trackline/contracts';
import { sql } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { loadActor } from '../auth/load-actor.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { type Param, prepareRead, prepareWrite } from '../orm/typed-query.js';
import { messageEvents } from './assemble.js';
import type { Claim } from './claims.js';
import {
  issueThreadId,
  mailDocument,
  messageIdDomain,
  messageIdOf,
  type OutgoingMail,
  toHtml,
  toText,
} from './email.js';
import { installationKey, unsubscribeToken } from './keys.js';
import type { RenderContext, RenderedIssue } from './render.js';

export type EmailTransport = {
  /** Sends one message; resolves once the SMTP server accepted it, rejects otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  /** The base of the links in messages (PUBLIC_URL, else the listening address). */
  baseUrl: string;
};

const messageQuery = prepareRead((param: Param<{ id: number; token: string }>) =>
  tables
    .selectFrom('notification_messages as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id',
      'm.user_id',
      'm.digest',
      'm.issue_id',
      'm.system',
      'u.login',
      'u.type',
      'u.email',
      'u.banned',
    ])
    .where('m.id', '=', param('id'))
    .where('m.claim_token', '=', param('token')),
);
const finish = prepareWrite(
  (
    param: Param<{
      id: number;
      token: string;
      status: 'sent' | 'skipped' | 'failed';
      at: number;
      error: string | null;
    }>,
  ) =>
    tables
      .updateTable('notification_messages')
      .set({
        status: param('status'),
        sent_at: param('at'),
        error: param('error'),
        lease_until: null,
        claim_token: null,
      })
      .where('id', '=', param('id'))
      .where('claim_token', '=', param('token')),
);
const retryLater = prepareWrite((param: Param<{ id: number; token: string; until: number; error: string }>) =>
  tables
    .updateTable('notification_messages')
    .set({
      status: sql.lit('pending'),
      lease_until: param('until'),
      error: param('error'),
      claim_token: null,
    })
    .where('id', '=', param('id'))
    .where('claim_token', '=', param('token')),
);

/** A user's actor, loaded once per worker step. */
export type ActorMemo = Map<number, Promise<Actor>>;
export const actorOf = (em: Em, memo: ActorMemo, user: { id: number; login: string; type: UserType }) => {
  let actor = memo.get(user.id);
  if (!actor) {
    actor = loadActor(em, user);
    memo.set(user.id, actor);
  }
  return actor;
};

/** Renders a message's issues for its recipient (what they may read now); empty: nothing to send. */
export async function renderMessage(
  em: Em,
  ctx: RenderContext,
  reader: Actor,
  messageId: number,
): Promise<RenderedIssue[]> {
  const byIssue = await messageEvents(em, messageId);
  await ctx.load([...byIssue.values()].flat());
  const out: RenderedIssue[] = [];
  for (const events of byIssue.values()) {
    const rendered = await ctx.render(reader, events);
    if (rendered) out.push(rendered);
  }
  return out;
}

export type SendOptions = { maxAttempts: number; logError: (error: unknown) => void };

/**
 * Sends claimed e-mail messages: each is built for its recipient as they may read it now, given
 * its deterministic Message-ID (the same at every attempt, so a resend after a crash between the
 * SMTP server's acceptance and our record is recognised as the same message), sent, and marked
 * sent. A refused send is retried later (1, 2, 4… minutes); after `maxAttempts`, failed.
 */
export async function sendEmails(
  em: Em,
  claims: Claim[],
  transport: EmailTransport,
  ctx: RenderContext,
  actors: ActorMemo,
  options: SendOptions & { afterSend?: (() => void | Promise<void>) | undefined },
): Promise<number> {
  const installation = await installationKey(em, 'installation');
  const domain = messageIdDomain(transport.baseUrl);
  let sent = 0;
  await Promise.all(
    claims.map(async (claim) => {
      const row = await messageQuery.first(em, claim);
      if (!row) return;
      const done = (status: 'sent' | 'skipped' | 'failed', error: string | null = null) =>
        finish.run(em, { ...claim, status, at: Date.now(), error });
      if (!row.email?.trim() || toBool(row.banned))
        return void (await done('skipped', 'no address, or banned'));
      let mail: OutgoingMail;
      try {
        const built = await buildMail(em, ctx, actors, row, transport.baseUrl, installation, domain);
        if (!built) return void (await done('skipped'));
        mail = built;
      } catch (error) {
        options.logError(error);
        return void (await retryLater.run(em, {
          ...claim,
          until: Date.now() + 60_000,
          error: errorText(error),
        }));
      }
      try {
        await transport.send(mail);
      } catch (error) {
        if (claim.attempts >= options.maxAttempts) return void (await done('failed', errorText(error)));
        const delay = Math.min(3_600_000, 60_000 * 2 ** (claim.attempts - 1));
        return void (await retryLater.run(em, {
          ...claim,
          until: Date.now() + delay,
          error: errorText(error),
        }));
      }
      await options.afterSend?.();
      await done('sent');
      sent++;
    }),
  );
  return sent;
}

async function buildMail(
  em: Em,
  ctx: RenderContext,
  actors: ActorMemo,
  row: {
    id: unknown;
    user_id: unknown;
    digest: unknown;
    issue_id: unknown;
    system: string | null;
    login: string;
    type: UserType;
    email: string | null;
  },
  baseUrl: string,
  installation: string,
  domain: string,
): Promise<OutgoingMail | null> {
  const userId = Number(row.user_id);
  const token = await unsubscribeToken(em, userId);
  const unsubscribeUrl = `${baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`;
  const settingsUrl = `${baseUrl}/settings/notifications`;
  const headers: Record<string, string> = {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    // RFC 8058: a client may unsubscribe with one POST, without opening the page.
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'Auto-Submitted': 'auto-generated',
    'X-Auto-Response-Suppress': 'All',
  };
  const base = {
    to: row.email as string,
    messageId: messageIdOf(Number(row.id), installation, domain),
    headers,
  };
  if (row.system) {
    const system = JSON.parse(row.system) as { subject: string; text: string };
    const doc = {
      title: system.subject,
      sections: [
        {
          title: system.subject,
          url: `${baseUrl}/`,
          blocks: [{ heading: '', lines: [{ text: system.text }] }],
        },
      ],
      footer: [{ label: 'Settings', text: settingsUrl }],
    };
    return { ...base, subject: system.subject, text: toText(doc), html: toHtml(doc) };
  }
  const reader = await actorOf(em, actors, { id: userId, login: row.login, type: row.type });
  const issues = await renderMessage(em, ctx, reader, Number(row.id));
  if (issues.length === 0) return null;
  const digest = toBool(row.digest);
  const doc = mailDocument(issues, baseUrl, settingsUrl, unsubscribeUrl, digest);
  const thread = !digest && issues[0] ? issueThreadId(issues[0].issue.dbId, installation, domain) : undefined;
  return {
    ...base,
    subject: doc.title,
    text: toText(doc),
    html: toHtml(doc),
    ...(thread ? { inReplyTo: thread, references: thread } : {}),
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);
