import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GATEWAY_AUTH_ERROR_CODES,
  GATEWAY_SIGNED_OUT_CODE,
  batchResult,
  errorBody,
  gatewayBatch,
} from '@wearable/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { withLaneHint } from '../../db/priority-lane.js';
import { ApiError, unauthorized } from '../../errors.js';
import {
  type AuthenticatedGateway,
  authenticateGateway,
  type GatewayAuthorizationProblem,
  readGatewayAuthorization,
} from './gateway-auth.js';
import { GatewayThrottledError } from './gateway-throttle.js';
import { ingestionService } from './ingestion.service.js';
import { parseBatch } from './steps/parse.js';

/**
 * 401 for an unknown gateway or a wrong credential (not saying which): a gateway that was retired, or
 * whose credential was rotated or given to a newly enrolled phone, is signed out until set up again.
 */
const signedOut = () =>
  unauthorized(
    'Gateway signed out: unknown gateway or wrong credential (the gateway was retired, or its credential was rotated or given to a newly enrolled phone); enrol the phone or set up the gateway again',
    GATEWAY_SIGNED_OUT_CODE,
  );

/** The gateway's own mistakes in `Authorization`, each named (401, nothing looked up). */
const AUTHORIZATION_PROBLEMS: Record<GatewayAuthorizationProblem, () => ApiError> = {
  missing: () =>
    unauthorized(
      'Authorization header missing: a gateway sends `Authorization: Gateway <gatewayId>:<credential>`',
      GATEWAY_AUTH_ERROR_CODES.missing,
    ),
  wrongScheme: () =>
    unauthorized(
      'Authorization must use the Gateway scheme, `Gateway <gatewayId>:<credential>` (the id and credential shown when the gateway was registered), not Bearer or another scheme: a staff token is no gateway credential',
      GATEWAY_AUTH_ERROR_CODES.wrongScheme,
    ),
  malformed: () =>
    unauthorized(
      'Authorization must be `Gateway <gatewayId>:<credential>`: the gateway id, a colon, then the credential, without spaces',
      GATEWAY_AUTH_ERROR_CODES.malformed,
    ),
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The gateway a /gateway/v1 request authenticated as (set before the body is parsed). */
    gateway: AuthenticatedGateway | null;
  }
}

/** POST /gateway/v1/batches: the gateway protocol over HTTP (docs/gateway-protocol.md). */
export const ingestionRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const ingestion = ingestionService(ctx);
  app.decorateRequest('gateway', null);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/gateway/v1/batches',
    {
      schema: {
        tags: ['gateway'],
        summary: 'Send a batch of readings, environment readings and device events',
        description:
          'Authorization: Gateway <gatewayId>:<credential>. Items are checked one by one; the reply ' +
          'comes after the valid items are stored. Re-sending a batch is safe (duplicates are counted, not stored).',
        headers: z.object({ authorization: z.string().optional() }),
        body: gatewayBatch,
        response: {
          200: batchResult,
          400: errorBody,
          401: errorBody,
          429: errorBody,
          503: errorBody,
        },
      },
      // Before the body is parsed: a wrong credential is 401 whatever it sent.
      onRequest: async (request, reply) => {
        const auth = readGatewayAuthorization(request.headers.authorization);
        if ('problem' in auth) throw AUTHORIZATION_PROBLEMS[auth.problem]();
        // Urgent lane: a credential look-up (once per gateway per 30 s) must not wait behind queued
        // batches, or an SOS from a gateway not yet cached would (db/priority-lane.ts).
        const gateway = await withLaneHint({ urgent: true }, () =>
          authenticateGateway(ctx, auth.gatewayId, auth.credential, request.ip),
        ).catch((err: unknown) => {
          if (err instanceof GatewayThrottledError) {
            void reply.header('retry-after', String(err.retryAfterSeconds));
          }
          throw err;
        });
        if (!gateway) throw signedOut();
        request.gateway = gateway;
      },
    },
    async (request, reply) => {
      const gateway = request.gateway;
      if (!gateway) throw signedOut();
      // Backpressure: the queue stays bounded and the gateway retries; SOS/FALL are always taken.
      const parsed = parseBatch(request.body, ctx.now());
      if (!parsed.urgent && ingestion.backlog() >= ctx.config.ingestMaxPending) {
        void reply.header('retry-after', '1');
        throw new ApiError(503, 'INGESTION_BUSY', 'Too many batches in progress; retry after 1 s');
      }
      return ingestion.ingest(gateway, request.body, parsed);
    },
  );
};
