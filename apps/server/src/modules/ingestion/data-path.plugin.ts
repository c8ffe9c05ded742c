import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { startEngineTicker } from '../../engine/runner.js';
import { startRetentionJob } from '../readings/retention.job.js';
import { ingestionRoutes } from './ingestion.routes.js';

/**
 * The wearable data path inside the app: HTTP ingestion, the engine's clock tick and the
 * retention job, both stopped when the app closes. (MQTT is started by main/tests: mqtt/.)
 */
export const dataPathPlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(ingestionRoutes, { ctx });
  const onError = (job: string) => (err: unknown) => app.log.error({ err }, `${job} failed`);
  const stops: (() => Promise<void>)[] = [startRetentionJob(ctx, onError('retention job'))];
  if (ctx.config.engineTickSeconds > 0) {
    stops.push(startEngineTicker(ctx, ctx.config.engineTickSeconds * 1000, onError('engine tick')));
  }
  app.addHook('onClose', async () => {
    await Promise.all(stops.map((stop) => stop()));
  });
};
