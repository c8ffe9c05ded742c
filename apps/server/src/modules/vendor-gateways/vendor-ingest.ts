import type { BatchResult, BraceletReading, DeviceEvent } from '@wearable/domain';
import {
  type AdapterOutput,
  type Refusal,
  stepsSince,
  toGatewayBatch,
} from '../../adapters/adapter-output.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { ingestionService } from '../ingestion/ingestion.service.js';
import type { VendorGateway } from './vendor-auth.js';
import { vendorGatewaysRepository } from './vendor-gateways.repository.js';
import type { PresenceGateway } from './presence-coalescer.js';
import { registeredAmong } from './registered-devices.js';
import { MAX_STEP_TOTALS, rememberBounded } from './vendor-gateways.state.js';

/** What a vendor device gets back: the native result, plus what its decoder refused and heard. */
export interface VendorResult extends BatchResult {
  /** Parts of the vendor payload the decoder refused, with the reason (line, device, record index). */
  refused: Refusal[];
  /** Devices heard that are not registered bracelets: listed for the console, never stored. */
  unknownDevices: number;
  /**
   * Registered tags only heard whose presence was folded into their window (stored at its end,
   * VENDOR_PRESENCE_INTERVAL_MS), not in `accepted`.
   */
  presenceCoalesced: number;
}

/** 429 with Retry-After: the gateway sent more advertisements than its limit allows. */
export class GatewayRateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(
      429,
      'GATEWAY_RATE_LIMITED',
      `This gateway sends more advertisements than its limit; retry after ${retryAfterSeconds} s`,
      undefined,
      retryAfterSeconds,
    );
  }
}

/** What a request costs against the gateway's limit: the advertisements (sightings) it carries. */
export const costOf = (output: AdapterOutput): number => Math.max(1, output.sightings.length);

/**
 * Takes the request's cost from the gateway's bucket (in SQL, so concurrent requests on any
 * server cannot overdraw it). A request carrying an SOS or FALL is never refused: it is taken
 * even when the bucket is empty (and empties it).
 */
async function checkRate(ctx: AppContext, gateway: VendorGateway, output: AdapterOutput) {
  const { gatewayAdvertisementsPerSecond: rate, gatewayAdvertisementsBurst: burst } = ctx.config;
  const cost = Math.min(costOf(output), burst);
  const repo = vendorGatewaysRepository(ctx.db);
  const left = await repo.takeTokens(gateway.id, cost, rate, burst, ctx.now());
  if (left !== null) return;
  if (output.events.some((e) => e.type === 'SOS' || e.type === 'FALL')) return;
  throw new GatewayRateLimitedError(Math.max(1, Math.ceil(cost / rate)));
}

/** LoRaWAN bracelets count steps per day: the native reading gets the steps since the last total. */
function applyStepTotals(ctx: AppContext, output: AdapterOutput): void {
  const totals = ctx.vendorGateways.stepTotals;
  for (const t of [...output.stepTotals].sort((a, b) => (a.at < b.at ? -1 : 1))) {
    const steps = stepsSince(totals.get(t.deviceId), t.stepsToday);
    rememberBounded(totals, t.deviceId, t.stepsToday, MAX_STEP_TOTALS);
    const reading = output.readings.find((r) => r.serialNumber === t.deviceId && r.at === t.at);
    if (reading) reading.steps = Math.min(steps, 100_000);
  }
}

/**
 * The one way a vendor payload reaches the data: an adapter's output is checked against the
 * gateway's rate limit, mapped to the native batch (registered devices only) and handed to the
 * same `ingestBatch` as a native batch (validation, idempotency, engine, access, acknowledgement).
 * Presence-only readings pass once per window per tag; the others are folded and stored at the
 * window's end through `ingestCoalescedPresence`, the same `ingestBatch`.
 * Devices heard but not registered go to the bounded "heard, not registered" list, written every
 * few seconds (unknown-devices.buffer.ts).
 */
export async function ingestVendorOutput(
  ctx: AppContext,
  gateway: VendorGateway,
  output: AdapterOutput,
): Promise<VendorResult> {
  await checkRate(ctx, gateway, output);
  applyStepTotals(ctx, output);
  const ids = [
    ...new Set([
      ...output.sightings.map((s) => s.deviceId),
      ...output.readings.map((r) => r.serialNumber),
      ...output.events.map((e) => e.serialNumber),
    ]),
  ];
  const registered = await registeredAmong(
    ctx.vendorGateways.owners,
    ctx.db,
    gateway.organizationId,
    ids,
  );
  const { batch, presence, unknownDevices } = toGatewayBatch(output, (id) =>
    registered.has(id) ? id : undefined,
  );
  // A merely heard tag's presence passes once per window; the rest waits, folded (presence-coalescer.ts).
  const passing = ctx.vendorGateways.presence.admit(gateway, presence);
  const result = await ingestionService(ctx).ingest(gateway, {
    readings: [...batch.readings, ...passing],
    events: [...batch.events, ...unregisteredHelpCalls(output, registered)],
    environment: [],
  });
  ctx.vendorGateways.unknownDevices.add(gateway, unknownDevices);
  return {
    ...result,
    refused: output.refused,
    unknownDevices: unknownDevices.length,
    presenceCoalesced: presence.length - passing.length,
  };
}

/**
 * The SOS and falls of devices not registered (issue 34): never dropped, they go to ingestion, which
 * opens an alert with no wearer for them (the first of each device and type, as `toGatewayBatch`).
 * Their readings and sightings stay out (listed as heard, not stored).
 */
function unregisteredHelpCalls(output: AdapterOutput, registered: ReadonlySet<string>) {
  const first = new Map<string, DeviceEvent>();
  for (const e of output.events) {
    if ((e.type !== 'SOS' && e.type !== 'FALL') || registered.has(e.serialNumber)) continue;
    const key = `${e.serialNumber}/${e.type}`;
    const seen = first.get(key);
    if (!seen || e.at < seen.at) first.set(key, e);
  }
  return [...first.values()];
}

/** Stores a window's coalesced presence: the same `ingestBatch` as a request (validation, engine, access). */
export const ingestCoalescedPresence = (
  ctx: AppContext,
  gateway: PresenceGateway,
  readings: BraceletReading[],
): Promise<BatchResult> =>
  ingestionService(ctx).ingest(gateway, { readings, events: [], environment: [] });
