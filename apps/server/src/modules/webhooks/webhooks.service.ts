import { randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryList,
  type WebhookDeliveryView,
  type WebhookView,
  type WebhookWithSecret,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError, conflict } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { secretBoxService } from '../auth/secret-box.service.js';
import { resolvePublicHost } from './webhook-address.js';
/** The address check of outgoing requests to URLs a user gave (webhooks; browsers' push endpoints). */
export { resolvePublicHost };
import { payloadOf, webhookOutboxService } from './webhook-outbox.service.js';
import { type EndpointRow, toWebhookView, webhooksRepository } from './webhooks.repository.js';

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

/** A new signing secret: whsec_ and 24 random bytes in base64, as Standard Webhooks writes them. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** What the audit log keeps of an endpoint (never its secret). */
const audited = (r: EndpointRow) => ({
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  enabled: r.enabled,
});

/**
 * An organisation's webhook endpoints (docs/webhooks.md): owners register, change, rotate, disable
 * and delete them; the delivery log, send again and a test event. Access is the access layer's
 * (webhook:read, webhook:manage on the organisation); every change is audited.
 */
export function webhooksService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = webhooksRepository(ctx.db);
  const box = secretBoxService(ctx);

  /** The URL's host must resolve to addresses that may receive webhooks (SSRF; checked again at each delivery). */
  async function checkReachable(url: string): Promise<void> {
    try {
      await resolvePublicHost(url, ctx.config.webhooks.allowPrivate);
    } catch (err) {
      throw invalid('body.url', (err as Error).message);
    }
  }

  async function endpointOf(
    actor: Actor,
    webhookId: string,
    permission: 'webhook:read' | 'webhook:manage',
  ) {
    await access.require(actor, permission, 'webhook', webhookId);
    const row = await repo.find(webhookId);
    if (!row) throw notFoundError('webhook', webhookId);
    return row;
  }

  /** A delivery just written or re-queued; a 404 if its endpoint was deleted in between. */
  async function deliveryOrNotFound(webhookId: string, deliveryId: string) {
    const delivery = await repo.delivery(webhookId, deliveryId);
    if (!delivery) throw notFoundError('webhook', webhookId);
    return delivery;
  }

  async function audit(
    actor: Actor,
    row: EndpointRow,
    before: object | undefined,
    after: object | undefined,
  ) {
    await auditService(ctx.db).record({
      organizationId: row.organizationId,
      actorId: actor.uid,
      kind: 'webhook.change',
      targetId: row.id,
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
    });
  }

  return {
    async list(actor: Actor, organizationId: string): Promise<{ webhooks: WebhookView[] }> {
      await access.require(actor, 'webhook:read', 'organization', organizationId);
      return { webhooks: (await repo.list(organizationId)).map(toWebhookView) };
    },

    async create(
      actor: Actor,
      organizationId: string,
      body: CreateWebhookBody,
    ): Promise<WebhookWithSecret> {
      await access.require(actor, 'webhook:manage', 'organization', organizationId);
      await checkReachable(body.url);
      const secret = newSecret();
      const secretSealed = await box.seal(secret);
      const row = await ctx.db.transaction(async (tx) => {
        const created = await webhooksRepository(tx).insert(
          {
            id: `whk_${randomUUID().replaceAll('-', '')}`,
            organizationId,
            url: body.url,
            description: body.description ?? '',
            eventTypes: body.eventTypes,
            secretSealed,
            createdBy: actor.uid,
          },
          ctx.now(),
          WEBHOOK_ENDPOINTS_MAX,
        );
        if (!created)
          throw conflict(
            `An organisation has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints`,
            'WEBHOOK_LIMIT',
          );
        await auditService(tx).record({
          organizationId,
          actorId: actor.uid,
          kind: 'webhook.change',
          targetId: created.id,
          after: audited(created),
        });
        return created;
      });
      return { webhook: toWebhookView(row), secret };
    },

    async update(actor: Actor, webhookId: string, body: UpdateWebhookBody): Promise<WebhookView> {
      const before = await endpointOf(actor, webhookId, 'webhook:manage');
      if (body.url !== undefined && body.url !== before.url) await checkReachable(body.url);
      const row = await repo.update(webhookId, body, ctx.now());
      if (!row) throw notFoundError('webhook', webhookId);
      await audit(actor, row, audited(before), audited(row));
      // Re-enabled: what waited is due again.
      if (body.enabled) ctx.webhooks.wake();
      return toWebhookView(row);
    },

    async remove(actor: Actor, webhookId: string) {
      const before = await endpointOf(actor, webhookId, 'webhook:manage');
      await repo.remove(webhookId);
      await audit(actor, before, audited(before), undefined);
      return { webhookId, deleted: true as const };
    },

    async rotate(actor: Actor, webhookId: string): Promise<WebhookWithSecret> {
      await endpointOf(actor, webhookId, 'webhook:manage');
      const secret = newSecret();
      const row = await repo.setSecret(webhookId, await box.seal(secret), ctx.now());
      if (!row) throw notFoundError('webhook', webhookId);
      await audit(actor, row, undefined, { ...audited(row), secretRotated: true });
      return { webhook: toWebhookView(row), secret };
    },

    async sendTest(actor: Actor, webhookId: string): Promise<WebhookDeliveryView> {
      const endpoint = await endpointOf(actor, webhookId, 'webhook:manage');
      const payload = payloadOf(WEBHOOK_TEST_EVENT, ctx.now(), {
        webhookId,
        message: 'A test event sent from the console.',
      });
      const [id] = await ctx.db.transaction(async (tx) => {
        // Deleted meanwhile (another request): a 404, not a delivery to an endpoint that is gone.
        const [still] = await tx.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR SHARE', [
          webhookId,
        ]);
        if (!still) throw notFoundError('webhook', webhookId);
        return webhookOutboxService(ctx).insertEvents(tx, [
          {
            organizationId: endpoint.organizationId,
            type: WEBHOOK_TEST_EVENT,
            payload,
            endpointIds: [webhookId],
          },
        ]);
      });
      return deliveryOrNotFound(webhookId, id!);
    },

    async deliveries(
      actor: Actor,
      webhookId: string,
      page: number,
      pageSize: number,
    ): Promise<WebhookDeliveryList> {
      await endpointOf(actor, webhookId, 'webhook:read');
      const found = await repo.deliveries(webhookId, pageSize, (page - 1) * pageSize);
      return { ...found, page, pageSize };
    },

    async resend(
      actor: Actor,
      webhookId: string,
      deliveryId: string,
    ): Promise<WebhookDeliveryView> {
      await endpointOf(actor, webhookId, 'webhook:manage');
      if (!(await repo.resend(webhookId, deliveryId, ctx.now())))
        throw new ApiError(404, 'WEBHOOK_DELIVERY_NOT_FOUND', `Delivery ${deliveryId} not found`);
      ctx.webhooks.wake();
      return deliveryOrNotFound(webhookId, deliveryId);
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
