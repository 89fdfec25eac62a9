import type { VcsDeliveryReportDto, VcsDeliverySummaryDto } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { VcsDelivery } from '../model/vcs.entity.js';
import type { Em } from '../orm/em.js';
import { deliveryReport, deliverySummary } from './delivery-report.js';
import { findAdministeredIntegration as integrationFor } from './integrations.js';

/** Recent deliveries, newest first (`after` skips, `max` caps at 500). */
export async function listVcsDeliveries(
  em: Em,
  actor: Actor,
  name: string,
  page: { after?: number | undefined; max?: number | undefined } = {},
): Promise<VcsDeliverySummaryDto[]> {
  const integration = await integrationFor(em, actor, name);
  const deliveries = await em.find(
    VcsDelivery,
    { integration },
    { orderBy: { id: 'desc' }, offset: page.after ?? 0, limit: page.max ?? 50, exclude: ['payload'] },
  );
  return deliveries.map(deliverySummary);
}

export async function getVcsDeliveryReport(
  em: Em,
  actor: Actor,
  name: string,
  deliveryId: number,
): Promise<VcsDeliveryReportDto> {
  const integration = await integrationFor(em, actor, name);
  const delivery = await em.findOne(VcsDelivery, { id: deliveryId, integration });
  if (!delivery) throw DomainError.notFound('Delivery', String(deliveryId));
  return deliveryReport(em, integration, delivery, actor);
}
