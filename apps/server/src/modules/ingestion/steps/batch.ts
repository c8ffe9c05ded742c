/**
 * The batch as it goes through the ingestion pipeline (ingestion.service.ts) is typed per step,
 * beside its step (Parsed, Resolved, Stored, Folded, Evaluated); here is what the steps share.
 * Each step is a function of (context, transaction, batch) (the steps outside the batch's
 * transaction take no transaction, or the database) and returns the batch with what it added;
 * no step calls another.
 */

import type { EngineInput } from '../../../engine/types.js';
import type { AuthenticatedGateway } from '../gateway-auth.js';
import type { ResolvedBatch, ResolvedEvent } from './resolve.js';

/** Every sighting and phone position of the batch, for the place fold (places.service.ts). */
export const batchSightings = (gateway: AuthenticatedGateway, batch: ResolvedBatch) => ({
  organizationId: gateway.organizationId,
  gatewayId: gateway.id,
  sightings: [
    ...batch.readings.map((r) => ({ wearerId: r.row.wearerId, at: r.row.at, rssi: r.row.rssi })),
    ...batch.events.map((e) => ({ wearerId: e.wearerId, at: e.at, rssi: e.rssi })),
  ],
  positions: batch.positions,
});

/** A device event as the engine's input. */
export const eventInput = (e: ResolvedEvent): Extract<EngineInput, { kind: 'event' }> => ({
  kind: 'event',
  at: e.at,
  type: e.type,
  ...(e.cause ? { cause: e.cause } : {}),
});
