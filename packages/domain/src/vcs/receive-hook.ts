import type { VcsHookResponseDto } from '@trackline/contracts';
import { DomainError } from '../errors.js';
import type { Em } from '../orm/em.js';
import { classifyHook, normalizePush } from './classify-hook.js';
import { pendingResult, planCommit } from './commit-plan.js';
import { deliveryReport } from './delivery-report.js';
import { extractPayload, type HookRequest, parsePayloadJson } from './hook-request.js';
import type { HookIntegration } from './integrations.js';
import { deliveryKeyOf, recordDelivery } from './record-delivery.js';
import { verifyHook } from './verify-hook.js';

export type HookReceipt = { status: 200 | 202; body: VcsHookResponseDto; deliveryId?: number };

/** The bytes a signature covers: the body as received, or a query payload's own bytes. */
const signedBytes = (request: HookRequest) =>
  request.body.toString('utf8').trim() || request.queryPayload === null
    ? request.body
    : Buffer.from(request.queryPayload, 'utf8');

/**
 * A hook call for an integration (already identified by its apiKey): verify the signature
 * over the raw bytes, then parse, then store the push as a pending delivery and answer.
 * Processing happens later, in the worker; nothing is stored for pings, other events or
 * anything refused.
 */
export async function receiveHook(
  em: Em,
  integration: HookIntegration,
  request: HookRequest,
): Promise<HookReceipt> {
  const signed = signedBytes(request);
  if (integration.secret) verifyHook(integration.host, request.header, signed, integration.secret);
  const event = classifyHook(integration.host, request.header);
  if (event.kind === 'ping') return { status: 200, body: { status: 'pong' } };
  if (event.kind === 'other') {
    return { status: 200, body: { status: 'ignored', reason: `${event.name} events are not processed` } };
  }
  const push = normalizePush(integration.host, parsePayloadJson(extractPayload(request).text));
  if (push.repository.toLowerCase() !== integration.repository.toLowerCase()) {
    throw DomainError.forbidden(`receive pushes of repository [ ${push.repository} ] with this apiKey`);
  }
  const key = deliveryKeyOf(request.header, signed);
  const recorded = await recordDelivery(em, integration.id, key, event.name, push);
  if ('existing' in recorded) {
    const delivery = recorded.existing;
    const report = await deliveryReport(em.fork() as Em, integration, delivery, null);
    return { status: 200, body: { status: 'duplicate', delivery: delivery.id, commits: report.commits } };
  }
  // The pending results come from the push alone: no query between storing and answering.
  return {
    status: 202,
    deliveryId: recorded.id,
    body: {
      status: 'queued',
      delivery: recorded.id,
      commits: push.commits.map((commit) => pendingResult(planCommit(commit, integration.branches))),
    },
  };
}
