import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listSiteHeat } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import type { NotificationProvider } from '../notifications/notifications.service.js';
import { siteHeatNoticesService } from '../notifications/site-heat-notices.service.js';
import { siteHeatService } from './site-heat.service.js';
import { serve } from '../../http/serve.js';

/**
 * The site heat level: GET /v2/client/{clientId}/siteHeat, and the listener that notifies the
 * group's heat contacts once per change (on the server that stored the change; another server's
 * copy of the event is for its live streams only).
 */
export const siteHeatPlugin: FastifyPluginAsyncZod<{
  ctx: AppContext;
  provider?: NotificationProvider;
}> = async (app, { ctx, provider }) => {
  const siteHeat = siteHeatService(ctx);
  const siteHeatNotices = siteHeatNoticesService(ctx);

  serve(app, listSiteHeat, (req) =>
    siteHeat.list(req.actor, req.params.clientId, req.query.groupId),
  );

  const chosen = provider ?? ctx.phone;
  const onChanged = (e: BusEvents['siteHeat.changed']) => {
    if (ctx.cluster.fromAnotherServer(e)) return;
    siteHeatNotices
      .sendSiteHeatNotices(chosen, e)
      .catch((err: unknown) =>
        app.log.error({ err, siteHeatEventId: e.change.id }, 'site heat notice failed'),
      );
  };
  ctx.bus.on(BUS_EVENTS.siteHeatChanged, onChanged);
  app.addHook('onClose', () => {
    ctx.bus.off(BUS_EVENTS.siteHeatChanged, onChanged);
    return Promise.resolve();
  });
};
