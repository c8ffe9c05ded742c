import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BusEvents } from '../../engine/events.js';
import type { NotificationProvider } from './notification-provider.js';
import { notificationsRoutes } from './notifications.routes.js';
import { notificationsService } from './notifications.service.js';
import { twilioCallbacksRoutes } from './twilio-callbacks.routes.js';

/** How often the sweeper looks for due escalations. */
export const SWEEP_INTERVAL_MS = 5_000;

/**
 * Notifications: routes, the alert.opened listener and the escalation sweeper (escalation
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

  const onOpened = (alert: BusEvents['alert.opened']) => {
    // Another server's alert was notified by that server (it re-emits here for live streams).
    if (!alert.notify || ctx.cluster.fromAnotherServer(alert)) return;
    service
      .alertOpened(alert.id)
      .catch((err: unknown) => app.log.error({ err, alertId: alert.id }, 'notify failed'));
  };
  ctx.bus.on(BUS_EVENTS.alertOpened, onOpened);

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
    ctx.bus.off(BUS_EVENTS.alertOpened, onOpened);
  });
};
