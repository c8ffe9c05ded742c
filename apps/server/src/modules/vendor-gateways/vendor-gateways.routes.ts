import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  GATEWAY_KIND_HTTP,
  kindUsesPathSecret,
  VENDOR_GATEWAY_KINDS,
  type VendorGatewayKind,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type BusEvents } from '../../bus/events.js';
import { withLaneHint } from '../../db/priority-lane.js';
import { ApiError, unauthorized } from '../../errors.js';
import { GatewayThrottledError, ingestionService } from '../ingestion/ingestion.service.js';
import { forgetOwner } from './registered-devices.js';
import { authenticateByHeader, authenticateByPath, type VendorGateway } from './vendor-auth.js';
import { presenceSweepMs } from './presence-coalescer.js';
import {
  GatewayRateLimitedError,
  ingestCoalescedPresence,
  ingestVendorOutput,
} from './vendor-ingest.js';
import {
  decodeVendorPayload,
  possibleSosLine,
  refusedAsWhole,
  refusalIssues,
} from './vendor-payload.js';

/** Vendor bodies: a Minew or April Brother POST carries at most 5,000 devices (well under this). */
const BODY_LIMIT = 2 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The vendor gateway a /gateway/v1/<kind> request authenticated as (before its body is read). */
    vendorGateway: VendorGateway | null;
  }
}

const withRetryAfter = (reply: FastifyReply) => (err: unknown) => {
  if (err instanceof GatewayThrottledError || err instanceof GatewayRateLimitedError) {
    void reply.header('retry-after', String(err.retryAfterSeconds));
  }
  throw err;
};

/**
 * Gateways people can buy post their vendor's format here (issue 18, docs/gateway-adapters.md):
 * `POST /gateway/v1/<kind>` (HTTP Basic, or `Authorization: Gateway id:credential` as a network
 * server's header), and for devices that can send only a URL, `POST /gateway/v1/<kind>/<gatewayId>/<secret>`.
 *
 * Why `public: true`: these are not staff endpoints and carry no bearer token; the gateway is
 * authenticated in the onRequest hook below (before the body is read) by its credential or its
 * secret path, exactly as the native batch route does. The bodies are bytes (BINARY-LONG,
 * MessagePack, text lines), not JSON contracts, so the routes are hidden from the OpenAPI
 * document and described in docs/gateway-adapters.md. What a decoder yields goes through the
 * same `ingestBatch` as a native batch (vendor-ingest.ts).
 */
export const vendorGatewayRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.decorateRequest('vendorGateway', null);
  // Every body is read as bytes: each decoder knows its own format (JSON, binary or text).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  const onCredential = (e: BusEvents['gateway.credentialChanged']) =>
    ctx.vendorGateways.gateways.delete(e.gatewayId);
  // A bracelet registered, linked, handed over or unlinked (here or on another server): its device
  // is looked up again at its next advertisement (which passes at once: its presence window is
  // dropped), and it no longer waits as unknown.
  const onBracelet = (e: BusEvents['bracelet.changed']) => {
    forgetOwner(ctx.vendorGateways.owners, e.serialNumber);
    ctx.vendorGateways.unknownDevices.forget(e.organizationId, e.serialNumber);
    ctx.vendorGateways.presence.forget(e.serialNumber);
  };
  ctx.bus.on(BUS_EVENTS.gatewayCredentialChanged, onCredential);
  ctx.bus.on(BUS_EVENTS.braceletChanged, onBracelet);
  // Written every few seconds; the last write is closeContext's.
  ctx.vendorGateways.unknownDevices.start((err) =>
    app.log.error({ err }, 'writing unknown devices failed'),
  );
  // Coalesced presence is stored when its window ends (swept every second at most); the last by closeContext.
  ctx.vendorGateways.presence.start(
    (gateway, readings) => ingestCoalescedPresence(ctx, gateway, readings),
    presenceSweepMs(ctx.config.vendorPresenceIntervalMs),
    (err) => app.log.error({ err }, 'storing coalesced presence failed'),
  );
  app.addHook('onClose', () => {
    ctx.bus.off(BUS_EVENTS.gatewayCredentialChanged, onCredential);
    ctx.bus.off(BUS_EVENTS.braceletChanged, onBracelet);
  });

  const handle = (kind: VendorGatewayKind) => async (request: FastifyRequest) => {
    const gateway = request.vendorGateway;
    if (!gateway) throw unauthorized('Unknown gateway or wrong credential', 'GATEWAY_UNAUTHORIZED');
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (body.length === 0) throw new ApiError(400, 'VALIDATION_FAILED', 'body: empty');
    const event = (request.query as { event?: unknown }).event;
    const output = decodeVendorPayload(
      kind,
      body,
      ctx.now(),
      typeof event === 'string' ? event : undefined,
    );
    const sos = possibleSosLine(gateway.id, output);
    if (sos !== null) ctx.log.error({ gatewayId: gateway.id, kind }, sos);
    const whole = refusedAsWhole(output);
    if (whole !== null)
      throw new ApiError(400, 'VALIDATION_FAILED', `body: ${whole}`, refusalIssues(output));
    const urgent = output.events.some((e) => e.type === 'SOS' || e.type === 'FALL');
    // The native route's back-pressure: the queue stays bounded; SOS/FALL are always taken.
    if (!urgent && ingestionService(ctx).backlog() >= ctx.config.ingestMaxPending) {
      throw new ApiError(503, 'INGESTION_BUSY', 'Too many batches in progress; retry after 1 s');
    }
    return ingestVendorOutput(ctx, gateway, output);
  };

  const busy = (reply: FastifyReply) => (err: unknown) => {
    if (err instanceof ApiError && err.code === 'INGESTION_BUSY')
      void reply.header('retry-after', '1');
    return withRetryAfter(reply)(err);
  };

  for (const kind of VENDOR_GATEWAY_KINDS) {
    const path = GATEWAY_KIND_HTTP[kind].path;
    const schema = { hide: true };
    app.post(
      path,
      {
        config: { public: true },
        schema,
        bodyLimit: BODY_LIMIT,
        onRequest: async (request, reply) => {
          request.vendorGateway = await withLaneHint({ urgent: true }, () =>
            authenticateByHeader(ctx, kind, request.headers.authorization, request.ip),
          ).catch(withRetryAfter(reply));
        },
      },
      (request, reply) => handle(kind)(request).catch(busy(reply)),
    );
    if (!kindUsesPathSecret(kind)) continue;
    app.post<{ Params: { gatewayId: string; pathSecret: string } }>(
      `${path}/:gatewayId/:pathSecret`,
      {
        config: { public: true },
        schema,
        bodyLimit: BODY_LIMIT,
        onRequest: async (request, reply) => {
          const { gatewayId, pathSecret } = request.params;
          request.vendorGateway = await withLaneHint({ urgent: true }, () =>
            authenticateByPath(ctx, kind, gatewayId, pathSecret, request.ip),
          ).catch(withRetryAfter(reply));
        },
      },
      (request, reply) => handle(kind)(request).catch(busy(reply)),
    );
  }
};
