import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { NotificationProvider } from '../notifications/notifications.service.js';
import { gatewaySilenceNoticesService } from '../notifications/gateway-silence-notices.service.js';
import { gatewaySilenceRoutes } from './gateway-silence.routes.js';
import { gatewaySilenceService } from './gateway-silence.service.js';

/** How often the leader looks for gateways that went silent or were heard again. */
export const GATEWAY_SILENCE_SWEEP_MS = 10_000;

/**
 * GET ingestionStatus, and the leader's gateway silence sweep (only the leader: docs/decisions/0009-several-servers.md), and
 * the one notice of each silence it opened, sent after the sweep's commit.
 */
export const gatewaySilencePlugin: FastifyPluginAsync<{
  ctx: AppContext;
  provider?: NotificationProvider;
}> = async (app, { ctx, provider }) => {
  await app.register(gatewaySilenceRoutes, { ctx });
  let sweeping: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (sweeping || !ctx.cluster.leads()) return;
    sweeping = sweepAndNotify(ctx, provider ?? ctx.phone)
      .catch((err: unknown) => app.log.error({ err }, 'gateway silence sweep failed'))
      .finally(() => (sweeping = null));
  }, GATEWAY_SILENCE_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
  });
};

/** One sweep, then the notices of the silences it opened; of one organisation when given (tests). */
export async function sweepAndNotify(
  ctx: AppContext,
  provider: NotificationProvider,
  organizationId?: string,
): Promise<{ opened: string[]; closed: string[] }> {
  const done = await gatewaySilenceService(ctx).sweep(organizationId);
  const notices = gatewaySilenceNoticesService(ctx);
  for (const id of done.opened) await notices.notifySilence(provider, id);
  return done;
}
