import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { channelHealthRoutes } from './channel-health.routes.js';
import { channelHealthService } from './channel-health.service.js';

/** How often the leader looks for channels failing long enough, or recovered. */
export const CHANNEL_HEALTH_SWEEP_MS = 60_000;

/**
 * GET channelHealth, and the leader's sweep (only the leader: docs/decisions/0009-several-servers.md;
 * the open run's unique index and its claimed notice make a second server's sweep send nothing).
 */
export const channelHealthPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  await app.register(channelHealthRoutes, { ctx });
  const health = channelHealthService(ctx);
  let sweeping: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (sweeping || !ctx.config.channelHealthSweep || !ctx.cluster.leads()) return;
    sweeping = health
      .sweep()
      .catch((err: unknown) => app.log.error({ err }, 'channel health sweep failed'))
      .finally(() => (sweeping = null));
  }, CHANNEL_HEALTH_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
  });
};
