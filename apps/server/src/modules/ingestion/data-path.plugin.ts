import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { alertLifecycleService } from '../alerts/alert-lifecycle.service.js';
import { readingsService } from '../readings/readings.service.js';
import { ingestionRoutes } from './ingestion.routes.js';

/**
 * The wearable data path inside the app: HTTP ingestion, the engine's clock tick and the
 * retention job, both stopped when the app closes. (MQTT is started by main/tests: mqtt/.)
 */
export const dataPathPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(ingestionRoutes, { ctx });
  // A rotated credential is refused at once; a linked or handed-over bracelet is looked up again.
  // (Another server learns these through the cross-server bus, which re-emits them on its ctx.bus.)
  const onCredential = (e: BusEvents['gateway.credentialChanged']) =>
    ctx.ingestion.gateways.delete(e.gatewayId);
  // A changed setting is a new pending configuration: every gateway's cached one is read again.
  const onBracelet = (e: BusEvents['bracelet.changed']) => {
    ctx.ingestion.bracelets.delete(`${e.organizationId}|${e.serialNumber}`);
    ctx.ingestion.pendingConfig.clear();
  };
  ctx.bus.on(BUS_EVENTS.gatewayCredentialChanged, onCredential);
  ctx.bus.on(BUS_EVENTS.braceletChanged, onBracelet);
  const onError = (job: string) => (err: unknown) => app.log.error({ err }, `${job} failed`);
  const stops: (() => Promise<void>)[] = readingsService(ctx).startJobs(onError);
  ctx.rollups.start(onError('rollup flush'));
  if (ctx.config.engineTickSeconds > 0) {
    stops.push(
      alertLifecycleService(ctx).startTicker(
        ctx.config.engineTickSeconds * 1000,
        onError('engine tick'),
      ),
    );
  }
  app.addHook('onClose', async () => {
    ctx.bus.off(BUS_EVENTS.gatewayCredentialChanged, onCredential);
    ctx.bus.off(BUS_EVENTS.braceletChanged, onBracelet);
    await Promise.all(stops.map((stop) => stop()));
  });
};
