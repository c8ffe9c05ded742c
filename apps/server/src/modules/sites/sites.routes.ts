import type { FastifyPluginAsync } from 'fastify';
import {
  createSite,
  deleteSite,
  deleteSitePlan,
  getSitePlan,
  listSites,
  placeGateway,
  renameSite,
  SITE_PLAN_MAX_BYTES,
  uploadSitePlan,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { serve } from '../../http/serve.js';
import { sitesService } from './sites.service.js';

const tooLarge = () =>
  new ApiError(
    413,
    'SITE_PLAN_TOO_LARGE',
    `body: the plan is over 5 MB (${SITE_PLAN_MAX_BYTES} bytes); nothing was stored`,
  );

/** Sites, their plans (raw image bodies, any declared type: the content decides) and gateway places. */
export const sitesRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const sites = sitesService(ctx);

  // A plan is the raw image. Whatever Content-Type it is declared with (image/svg+xml included),
  // its bytes reach the service, which decides by content; the limit holds while it is read (the
  // declared length first, then the bytes as they come), so a 6 MB upload is never buffered whole.
  // (JSON keeps its parser for the other routes; a plan sent as JSON is refused as not an image.)
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (_request, payload, done) => {
    const declared = Number(_request.headers['content-length']);
    if (declared > SITE_PLAN_MAX_BYTES) return done(tooLarge(), undefined);
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > SITE_PLAN_MAX_BYTES) {
        stop();
        done(tooLarge(), undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      done(null, Buffer.concat(chunks, length));
    };
    const onError = (err: Error) => {
      stop();
      done(new ApiError(400, 'BAD_REQUEST', `body: ${err.message}`), undefined);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });

  serve(app, listSites, (req) => sites.list(req.actor, req.params.organizationId));
  serve(app, createSite, (req) => sites.create(req.actor, req.params.organizationId, req.body));
  serve(app, renameSite, (req) => sites.rename(req.actor, req.params.siteId, req.body.name));
  serve(app, deleteSite, (req) => sites.remove(req.actor, req.params.siteId));
  serve(app, uploadSitePlan, (req) => sites.putPlan(req.actor, req.params.siteId, req.body));
  serve(app, deleteSitePlan, (req) => sites.deletePlan(req.actor, req.params.siteId));
  // The image leaves with the Content-Type of the format read from it and headers that keep any
  // browser from sniffing it into something else or running anything from it.
  serve(app, getSitePlan, async (req, reply) => {
    const plan = await sites.planImage(req.actor, req.params.siteId);
    return reply
      .header('content-type', plan.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', `inline; filename="plan.${plan.format}"`)
      .send(plan.bytes);
  });
  serve(app, placeGateway, (req) => sites.place(req.actor, req.params.gatewayId, req.body));
};
