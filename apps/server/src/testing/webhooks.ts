import { secretBoxService } from '../modules/auth/secret-box.service.js';
import { payloadOf, webhookOutboxService } from '../modules/webhooks/webhook-outbox.service.js';
import type { TestApp } from './test-app.js';

/**
 * A webhook endpoint of the organisation (disabled, so no test app's worker sends to it) with one
 * test delivery: ids for the robustness matrices' `webhookId` and `deliveryId`.
 */
export async function createWebhookFixture(
  t: TestApp,
  organizationId: string,
): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = `whk_fixture_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const sealed = await secretBoxService(t.ctx).seal('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  await t.db.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, secret_sealed, enabled,
                                    disabled_reason, created_at, updated_at)
     VALUES ($1, $2, 'https://hooks.example.test/x', ARRAY['alert.opened'], $3, false, 'manual', now(), now())`,
    [webhookId, organizationId, sealed],
  );
  const [deliveryId] = await t.db.transaction((tx) =>
    webhookOutboxService(t.ctx).insertEvents(tx, [
      {
        organizationId,
        type: 'webhook.test',
        payload: payloadOf('webhook.test', t.ctx.now(), { webhookId, message: 'fixture' }),
        endpointIds: [webhookId],
      },
    ]),
  );
  return { webhookId, deliveryId: deliveryId! };
}
