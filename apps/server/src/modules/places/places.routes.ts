import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { getPlaceMap, getPlacePrivacy, getWearerTrail, updatePlacePrivacy } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { placeMapService } from './place-map.service.js';

const gzipAsync = promisify(gzip);
/**
 * A map answer this large goes gzip-encoded to a caller that accepts it: 10,000 people are about
 * 0.7 MB of JSON and a tenth of that encoded, which matters to a phone refetching while readings
 * arrive (docs/map.md). Smaller answers go as they are: compressing them costs more than it saves.
 */
export const MAP_GZIP_MIN_BYTES = 64 * 1024;

/** The answer's body for a caller's Accept-Encoding: gzip when large and accepted, else the text. */
export async function mapBody(
  json: string,
  acceptEncoding: string | undefined,
): Promise<{ body: string | Buffer; gzip: boolean }> {
  if (json.length < MAP_GZIP_MIN_BYTES || !/\bgzip\b/.test(acceptEncoding ?? ''))
    return { body: json, gzip: false };
  return { body: await gzipAsync(json, { level: constants.Z_BEST_SPEED }), gzip: true };
}

/** Where everyone is (issue 17): the /map's one request, and the organisation's place privacy. */
export const placesRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const places = placeMapService(ctx);
  serve(app, getPlaceMap, async (req, reply) => {
    const answer = await places.map(req.actor, req.params.organizationId);
    // Serialised here (the contract's shape, checked by the tests) so that it can be encoded:
    // Fastify sends text and bytes as they are.
    const { body, gzip } = await mapBody(JSON.stringify(answer), req.headers['accept-encoding']);
    void reply.header('vary', 'accept-encoding').type('application/json; charset=utf-8');
    if (gzip) void reply.header('content-encoding', 'gzip');
    return reply.send(body);
  });
  serve(app, getWearerTrail, (req) => places.trail(req.actor, req.params.uid, req.query.hours));
  serve(app, getPlacePrivacy, (req) => places.privacy(req.actor, req.params.organizationId));
  serve(app, updatePlacePrivacy, (req) =>
    places.setPrivacy(req.actor, req.params.organizationId, req.body),
  );
};
