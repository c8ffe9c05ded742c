import type { FastifyPluginAsync } from 'fastify';
import { getPlaceMap, getPlacePrivacy, getWearerTrail, updatePlacePrivacy } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { placeMapService } from './place-map.service.js';

/** Where everyone is (issue 17): the /map's one request, and the organisation's place privacy. */
export const placesRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const places = placeMapService(ctx);
  serve(app, getPlaceMap, (req) => places.map(req.actor, req.params.organizationId));
  serve(app, getWearerTrail, (req) => places.trail(req.actor, req.params.uid, req.query.hours));
  serve(app, getPlacePrivacy, (req) => places.privacy(req.actor, req.params.organizationId));
  serve(app, updatePlacePrivacy, (req) =>
    places.setPrivacy(req.actor, req.params.organizationId, req.body),
  );
};
