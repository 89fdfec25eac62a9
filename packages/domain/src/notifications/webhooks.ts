import {
  NOTIFICATION_EVENT_KINDS,
  type NotificationEventKind,
  type WebhookDeliveryStatus,
} from '@trackline/contracts';
import { sql } from 'kysely';
import { type Actor, can, requirePermission } from '../auth/actor.js';
import { randomSecret } from '../auth/secrets.js';
import { DomainError } from '../errors.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { inTransaction } from '../orm/transaction.js';
import { type Param, perLength, prepareRead, prepareWrite, readQuery } from '../orm/typed-query.js';
import { onUniqueViolation, rejectWith } from '../orm/unique.js';
import { getReadableProject } from '../projects/projects.js';
import { nameKey } from '../text/user-text.js';

export type WebhookView = {
  name: string;
  url: string;
  /** Short names; empty: every project. */
  projects: string[];
  kinds: NotificationEventKind[];
  owner: string;
  enabled: boolean;
  disabledReason: string | null;
  created: number;
};

export type WebhookInput = {
  name: string;
  url?: string | undefined;
  projects?: string[] | undefined;
  kinds?: NotificationEventKind[] | undefined;
  secret?: string | undefined;
  enabled?: boolean | undefined;
};

/** An http(s) URL without credentials (where it points is checked at each delivery, `apps/api`). */
export function checkWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw DomainError.invalid('url', 'must be an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw DomainError.invalid('url', 'must be an absolute http:// or https:// URL');
  if (parsed.username || parsed.password)
    throw DomainError.invalid('url', 'must not carry a user name or password (the signature authenticates)');
  return parsed.toString();
}

/** A hook's row and its owner's login, as `view` reads them. */
const hooks = () =>
  tables
    .selectFrom('webhooks as w')
    .innerJoin('users as o', 'o.id', 'w.owner_id')
    .select([
      'w.id',
      'w.name',
      'w.url',
      'w.kinds',
      'w.enabled',
      'w.disabled_reason',
      'w.created_at',
      'o.login',
    ]);
const hookQuery = prepareRead((param: Param<{ key: string }>) =>
  hooks().where('w.name_key', '=', param('key')),
);
const allHooksQuery = prepareRead(() => hooks().orderBy('w.name_key'));
const hookProjectsQuery = prepareRead((param: Param<{ id: number }>) =>
  tables
    .selectFrom('webhook_projects as wp')
    .innerJoin('projects as p', 'p.id', 'wp.project_id')
    .select(['p.id', 'p.short_name'])
    .where('wp.webhook_id', '=', param('id'))
    .orderBy('p.short_name_key'),
);

type HookRow = {
  id: unknown;
  name: string;
  url: string;
  kinds: string;
  enabled: unknown;
  disabled_reason: string | null;
  created_at: unknown;
  login: string;
};

/** Whoever may administer a hook: UPDATE_PROJECT in each of its projects (globally for a hook of every project). */
function mayAdminister(actor: Actor, projectIds: number[]): boolean {
  if (projectIds.length === 0) return can(actor, 'UPDATE_PROJECT');
  return projectIds.every((id) => can(actor, 'UPDATE_PROJECT', id));
}

async function view(em: Em, row: HookRow): Promise<{ view: WebhookView; projectIds: number[] }> {
  const projects = await hookProjectsQuery.all(em, { id: Number(row.id) });
  return {
    projectIds: projects.map((p) => Number(p.id)),
    view: {
      name: row.name,
      url: row.url,
      projects: projects.map((p) => p.short_name),
      kinds: row.kinds.split(',').filter(Boolean) as NotificationEventKind[],
      owner: row.login,
      enabled: toBool(row.enabled),
      disabledReason: row.disabled_reason,
      created: Number(row.created_at),
    },
  };
}

/** A hook the actor may administer, or NOT_FOUND (one they may not is hidden like a missing one). */
async function findHook(em: Em, actor: Actor, name: string): Promise<{ id: number; view: WebhookView }> {
  const row = await hookQuery.first(em, { key: nameKey(name) });
  if (row) {
    const found = await view(em, row);
    if (mayAdminister(actor, found.projectIds)) return { id: Number(row.id), view: found.view };
  }
  throw DomainError.notFound('Webhook', name);
}

/** The hooks the actor may administer. */
export async function listWebhooks(em: Em, actor: Actor): Promise<WebhookView[]> {
  const out: WebhookView[] = [];
  for (const row of await allHooksQuery.all(em, {})) {
    const found = await view(em, row);
    if (mayAdminister(actor, found.projectIds)) out.push(found.view);
  }
  return out;
}

export async function getWebhook(em: Em, actor: Actor, name: string): Promise<WebhookView> {
  return (await findHook(em, actor, name)).view;
}

async function projectIdsOf(em: Em, actor: Actor, projects: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const shortName of projects) {
    const project = await getReadableProject(em, actor, shortName);
    requirePermission(actor, 'UPDATE_PROJECT', project.id, `update project [ ${project.shortName} ]`);
    ids.push(project.id);
  }
  return [...new Set(ids)];
}

function checkSecret(secret: string | undefined): string | undefined {
  if (secret === undefined) return undefined;
  if (secret.length < 16 || secret.length > 200)
    throw DomainError.invalid('secret', 'must be 16 to 200 characters');
  return secret;
}

const kindsText = (kinds: NotificationEventKind[] | undefined) =>
  [...new Set(kinds?.length ? kinds : NOTIFICATION_EVENT_KINDS)].join(',');

const hookInsert = prepareWrite(
  (
    param: Param<{
      name: string;
      key: string;
      url: string;
      secret: string;
      kinds: string;
      owner: number;
      at: number;
    }>,
  ) =>
    tables
      .insertInto('webhooks')
      .values({
        name: param('name'),
        name_key: param('key'),
        url: param('url'),
        secret: param('secret'),
        kinds: param('kinds'),
        owner_id: param('owner'),
        created_at: param('at'),
      })
      .returning('id'),
);
const projectsInsert = perLength((count) =>
  prepareWrite((param: Param<{ rows: { webhook_id: number; project_id: number }[] }>) =>
    tables.insertInto('webhook_projects').values(
      Array.from({ length: count }, (_, i) => ({
        webhook_id: param.item('rows', i, 'webhook_id'),
        project_id: param.item('rows', i, 'project_id'),
      })),
    ),
  ),
);
const projectsDelete = prepareWrite((param: Param<{ id: number }>) =>
  tables.deleteFrom('webhook_projects').where('webhook_id', '=', param('id')),
);

async function setProjects(em: Em, id: number, projectIds: number[]) {
  await projectsDelete.run(em, { id });
  if (projectIds.length)
    await projectsInsert(projectIds.length).run(em, {
      rows: projectIds.map((p) => ({ webhook_id: id, project_id: p })),
    });
}

/**
 * Registers a hook (UPDATE_PROJECT in each chosen project; globally for one of every project).
 * The caller owns it: deliveries carry what they may read, and they are told when it is disabled.
 * The secret (given, or made here) is returned this once.
 */
export async function createWebhook(
  em: Em,
  actor: Actor,
  input: WebhookInput,
): Promise<{ view: WebhookView; secret: string }> {
  const url = checkWebhookUrl(input.url ?? '');
  const projectIds = await projectIdsOf(em, actor, input.projects ?? []);
  if (!mayAdminister(actor, projectIds))
    requirePermission(actor, 'UPDATE_PROJECT', undefined, 'register a webhook for every project');
  const secret = checkSecret(input.secret) ?? randomSecret(32);
  await onUniqueViolation(
    () =>
      inTransaction(em, async (tx) => {
        const [row] = await hookInsert.returning(tx as Em, {
          name: input.name,
          key: nameKey(input.name),
          url,
          secret,
          kinds: kindsText(input.kinds),
          owner: actor.userId,
          at: Date.now(),
        });
        await setProjects(tx as Em, Number(row?.id), projectIds);
      }),
    rejectWith(() => DomainError.alreadyExists('Webhook', input.name)),
  );
  return { view: await getWebhook(em, actor, input.name), secret };
}

const hookUpdate = prepareWrite(
  (param: Param<{ id: number; url: string; kinds: string; enabled: boolean; reason: string | null }>) =>
    tables
      .updateTable('webhooks')
      .set({
        url: param('url'),
        kinds: param('kinds'),
        enabled: param('enabled'),
        disabled_reason: param('reason'),
      })
      .where('id', '=', param('id')),
);
const secretUpdate = prepareWrite((param: Param<{ id: number; secret: string }>) =>
  tables
    .updateTable('webhooks')
    .set({ secret: param('secret') })
    .where('id', '=', param('id')),
);
/** Enabling a hook again gives its waiting deliveries a fresh retry period. */
const freshRetries = prepareWrite((param: Param<{ id: number }>) =>
  tables
    .updateTable('webhook_deliveries')
    .set({ first_attempt_at: null, lease_until: 0 })
    .where('webhook_id', '=', param('id'))
    .where('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
);

/** Changes a hook (as creating it needs, for its old and new projects); `enabled: true` brings a disabled one back. */
export async function updateWebhook(em: Em, actor: Actor, input: WebhookInput): Promise<WebhookView> {
  const hook = await findHook(em, actor, input.name);
  const url = input.url === undefined ? hook.view.url : checkWebhookUrl(input.url);
  const projectIds = input.projects === undefined ? undefined : await projectIdsOf(em, actor, input.projects);
  if (projectIds && !mayAdminister(actor, projectIds))
    requirePermission(actor, 'UPDATE_PROJECT', undefined, 'register a webhook for every project');
  const enabled = input.enabled ?? hook.view.enabled;
  await inTransaction(em, async (tx) => {
    await hookUpdate.run(tx as Em, {
      id: hook.id,
      url,
      kinds: input.kinds === undefined ? hook.view.kinds.join(',') : kindsText(input.kinds),
      enabled,
      reason: enabled ? null : (hook.view.disabledReason ?? `disabled by ${actor.login}`),
    });
    if (input.secret !== undefined)
      await secretUpdate.run(tx as Em, { id: hook.id, secret: checkSecret(input.secret) as string });
    if (projectIds) await setProjects(tx as Em, hook.id, projectIds);
    if (enabled && !hook.view.enabled) await freshRetries.run(tx as Em, { id: hook.id });
  });
  return getWebhook(em, actor, input.name);
}

const hookDelete = prepareWrite((param: Param<{ id: number }>) =>
  tables.deleteFrom('webhooks').where('id', '=', param('id')),
);

/** Deletes a hook with its deliveries and their log. */
export async function deleteWebhook(em: Em, actor: Actor, name: string): Promise<string> {
  const hook = await findHook(em, actor, name);
  await hookDelete.run(em, { id: hook.id });
  return `Webhook [ ${hook.view.name} ] deleted.`;
}

export type WebhookAttemptView = {
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  redelivery: boolean;
};
export type WebhookDeliveryView = {
  id: number;
  event: number;
  issue: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  created: number;
  delivered: number | null;
  nextAttempt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  payload: string | null;
  log: WebhookAttemptView[];
};

/** The hook's delivery log, newest first (at most `max`, before the delivery `before`). */
export async function listWebhookDeliveries(
  em: Em,
  actor: Actor,
  name: string,
  options: { before?: number | undefined; max?: number | undefined } = {},
): Promise<WebhookDeliveryView[]> {
  const hook = await findHook(em, actor, name);
  let query = tables
    .selectFrom('webhook_deliveries as d')
    .innerJoin('notification_events as e', 'e.id', 'd.event_id')
    .leftJoin('issues as i', 'i.id', 'e.issue_id')
    .leftJoin('projects as p', 'p.id', 'i.project_id')
    .select([
      'd.id',
      'd.event_id',
      'd.status',
      'd.attempts',
      'd.created_at',
      'd.delivered_at',
      'd.lease_until',
      'd.last_status',
      'd.last_error',
      'd.payload',
      'i.number_in_project',
      'p.short_name',
    ])
    .where('d.webhook_id', '=', hook.id)
    .orderBy('d.id', 'desc')
    .limit(Math.min(100, Math.max(1, options.max ?? 50)));
  if (options.before !== undefined) query = query.where('d.id', '<', options.before);
  const rows = await readQuery(em, query);
  const ids = rows.map((r) => Number(r.id));
  const attempts = ids.length
    ? await readQuery(
        em,
        tables
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'at', 'status_code', 'error', 'duration_ms', 'redelivery'])
          .where('delivery_id', 'in', ids)
          .orderBy('id'),
      )
    : [];
  return rows.map((r) => ({
    id: Number(r.id),
    event: Number(r.event_id),
    issue: r.short_name === null ? null : `${r.short_name}-${Number(r.number_in_project)}`,
    status: r.status,
    attempts: Number(r.attempts),
    created: Number(r.created_at),
    delivered: r.delivered_at === null ? null : Number(r.delivered_at),
    nextAttempt: r.status === 'pending' ? Number(r.lease_until) : null,
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    payload: r.payload,
    log: attempts
      .filter((a) => Number(a.delivery_id) === Number(r.id))
      .map((a) => ({
        at: Number(a.at),
        status: a.status_code === null ? null : Number(a.status_code),
        error: a.error,
        durationMs: Number(a.duration_ms),
        redelivery: toBool(a.redelivery),
      })),
  }));
}

const redeliverUpdate = prepareWrite((param: Param<{ id: number; hook: number }>) =>
  tables
    .updateTable('webhook_deliveries')
    .set({
      status: sql.lit('pending'),
      lease_until: 0,
      first_attempt_at: null,
      claim_token: null,
      delivered_at: null,
    })
    .where('id', '=', param('id'))
    .where('webhook_id', '=', param('hook'))
    .where('status', 'in', [sql.lit<'delivered'>('delivered'), sql.lit<'failed'>('failed')]),
);

/**
 * Sends a delivered or failed delivery again (the same body and delivery id, a new signature),
 * with a fresh retry period. One still waiting or being sent is a conflict; a skipped one has no body.
 */
export async function redeliverWebhook(
  em: Em,
  actor: Actor,
  name: string,
  deliveryId: number,
): Promise<WebhookDeliveryView> {
  const hook = await findHook(em, actor, name);
  const changed = await redeliverUpdate.run(em, { id: deliveryId, hook: hook.id });
  const [found] = (await listWebhookDeliveries(em, actor, name, { before: deliveryId + 1, max: 1 })).filter(
    (d) => d.id === deliveryId,
  );
  if (!found) throw DomainError.notFound('Webhook delivery', String(deliveryId));
  if (changed === 0)
    throw new DomainError(
      'CONFLICT',
      `Webhook delivery [ ${deliveryId} ] is ${found.status}: only a delivered or failed one is sent again.`,
    );
  return found;
}
