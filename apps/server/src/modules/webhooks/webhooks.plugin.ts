import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { webhookOutboxService } from './webhook-outbox.service.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { startWebhookWorker } from './webhooks.worker.js';

/** How often the leader looks for gateways that went offline or came back. */
export const GATEWAY_SWEEP_MS = 5_000;

/**
 * Webhooks: the routes, the delivery worker (every server, unless WEBHOOKS_WORKER=false) and the
 * gateway online/offline sweep (the leader only; it writes those events to the outbox).
 */
export const webhooksPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(webhooksRoutes, { ctx });
  let stopWorker: (() => Promise<void>) | null = null;
  let sweeping: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (sweeping || !ctx.cluster.leads()) return;
    sweeping = ctx.db
      .transaction((tx) => webhookOutboxService(ctx).sweepGatewayStates(tx), { urgent: false })
      .catch((err: unknown) => app.log.error({ err }, 'gateway webhook sweep failed'))
      .finally(() => (sweeping = null));
  }, GATEWAY_SWEEP_MS);
  timer.unref();
  app.addHook('onReady', () => {
    if (ctx.config.webhooks.worker) stopWorker = startWebhookWorker(ctx, app.log);
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
    await stopWorker?.();
  });
};
