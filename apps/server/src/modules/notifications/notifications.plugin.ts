import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { alertOutboxService } from '../alert-outbox/alert-outbox.service.js';
import type { NotificationProvider } from './notification-provider.js';
import { notificationsRoutes } from './notifications.routes.js';
import { notificationsService } from './notifications.service.js';
import { twilioCallbacksRoutes } from './twilio-callbacks.routes.js';

/**
 * How long a server holds an alert's notices once it took them: another server takes them after
 * this if it died meanwhile (a re-delivery skips EMERGENCY recipients already attempted).
 */
export const NOTICE_LEASE_MS = 20_000;

/** How often the sweeper looks for due escalations. */
export const SWEEP_INTERVAL_MS = 5_000;

/**
 * Notifications: routes, the alert outbox's notice deliverer and the escalation sweeper (escalation
 * times are stored, so a restart only delays an escalation until the first sweep).
 */
export const notificationsPlugin: FastifyPluginAsync<{
  ctx: AppContext;
  provider?: NotificationProvider;
}> = async (app, { ctx, provider }) => {
  await app.register(notificationsRoutes, { ctx });
  await app.register(twilioCallbacksRoutes, { ctx });
  const chosen = provider ?? ctx.phone;
  const service = notificationsService(ctx, chosen, app.log);

  // An opened alert's notices come from the alert outbox (written with the alert, claimed by one
  // server, so a process killed right after the commit loses none: modules/alert-outbox).
  let stopNotices: (() => Promise<void>) | null = null;
  app.addHook('onReady', () => {
    stopNotices = alertOutboxService(ctx).startDeliverer(
      {
        kind: 'notice',
        leaseMs: NOTICE_LEASE_MS,
        deliver: (row) => service.alertOpened(row.alertId),
      },
      app.log,
    );
  });

  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping || !ctx.cluster.leads()) return; // with several servers, one sweeps
    sweeping = true;
    service
      .sweep()
      .catch((err: unknown) => app.log.error({ err }, 'escalation sweep failed'))
      .finally(() => (sweeping = false));
  }, SWEEP_INTERVAL_MS);
  timer.unref();

  app.addHook('onClose', async () => {
    clearInterval(timer);
    await stopNotices?.();
  });
};
