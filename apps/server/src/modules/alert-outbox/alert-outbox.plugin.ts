import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { storedAlertsService } from '../alerts/stored-alerts.service.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { type AlertOutboxHandler, startAlertOutboxWorker } from './alert-outbox.worker.js';

/** A server that took an alert's live frame and died is replaced after this (consoles within ~2 s). */
export const LIVE_LEASE_MS = 1_500;

/**
 * The live "opened" frame from the outbox: an alert this process's bus has not carried (its
 * server died between the commit and the emit) is read back and emitted here, so this server's
 * consoles and, through the cluster bus, every other server's get it. One this bus carried only
 * loses its row.
 */
export function liveFrameHandler(ctx: AppContext): AlertOutboxHandler {
  return {
    kind: 'live',
    leaseMs: LIVE_LEASE_MS,
    async deliver(row) {
      if (ctx.alertOutbox.takePublished(row.alertId)) return;
      const alert = await storedAlertsService(ctx.db).find(row.alertId);
      if (!alert) return;
      ctx.bus.emit(BUS_EVENTS.alertOpened, alert);
      // A device no wearer holds has no wearer row to refresh.
      if (alert.wearerId !== null)
        notifyWearerUpdated(ctx, {
          organizationId: alert.organizationId,
          groupId: alert.groupId,
          wearerId: alert.wearerId,
        });
    },
  };
}

/**
 * The alert outbox (migration 038, docs/decisions/0015-alert-outbox.md): the live frame's
 * deliverer on every server (the notices' is the notifications plugin's). Every alert.opened on
 * this process's bus marks its frame as delivered here.
 */
export const alertOutboxPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onOpened = (alert: BusEvents['alert.opened']) => ctx.alertOutbox.markPublished(alert.id);
  ctx.bus.on(BUS_EVENTS.alertOpened, onOpened);
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', () => {
    stop = startAlertOutboxWorker(ctx, liveFrameHandler(ctx), app.log);
  });
  app.addHook('onClose', async () => {
    await stop?.();
    ctx.bus.off(BUS_EVENTS.alertOpened, onOpened);
  });
};
