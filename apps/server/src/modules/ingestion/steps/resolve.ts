import type {
  BraceletReading,
  DeviceEvent,
  DeviceEventType,
  FallCause,
  GatewayLocation,
} from '@wearable/domain';
import type { EngineInput } from '../../../engine/types.js';
import type { UnassignedEvent } from '../../alerts/unassigned-alerts.service.js';
import type { PositionRow, ReadingRow } from '../../readings/readings.service.js';
import type { Indexed, RejectedItem } from '../batch-items.js';
import { resolveSyncItems } from '../bracelet-sync.js';
import type { AuthenticatedGateway } from '../gateway-auth.js';
import type { BraceletRow } from '../ingestion.repository.js';
import type { AppContext } from '../../../context.js';
import { braceletsOf } from '../ingestion-caches.js';
import type { Parsed, ParsedBatch } from './parse.js';

/**
 * A reading converted once: the row that is stored (its `wbgt` filled in by the store, and read
 * by the latest-values fold) and the engine's input. `bracelet` is the cached row itself, so
 * what the batch learns (battery, pairing) is remembered for the next batch.
 */
export interface ResolvedReading {
  row: ReadingRow & { timeZone: string; wbgt: number | null };
  input: EngineInput;
  /** `braceletId|at ms`: how the store's answer names it. */
  key: string;
  bracelet: BraceletRow;
}

export interface ResolvedEvent {
  braceletId: string;
  wearerId: string;
  type: DeviceEventType;
  at: Date;
  /** The phone gateway's position when the event happened, if it sent one. */
  location: { latitude: number; longitude: number; accuracy: number; at: Date } | null;
  /** FALL: why the gateway sent it, if it said (stored with the event, named in the alert's cause). */
  cause: FallCause | null;
  /** How strongly the gateway heard the event (dBm), if it said: the place fold's signal. */
  rssi: number | null;
  /** `braceletId|at ms|type`. */
  key: string;
  bracelet: BraceletRow;
}

export interface ResolvedBatch {
  readings: ResolvedReading[];
  events: ResolvedEvent[];
  /** SOS and falls of devices no wearer holds (not in `rejected`: they are accepted). */
  unassigned: UnassignedEvent[];
  environment: {
    at: Date;
    temperature: number | null;
    humidity: number | null;
    wbgt: number | null;
  }[];
  sync: ReturnType<typeof resolveSyncItems>;
  /** Positions a phone gateway sent with readings and events, one per wearer and time. */
  positions: PositionRow[];
  /** The cached bracelet rows the gateway reported (readings, events, pairings). */
  reported: BraceletRow[];
  /** Wearers with a reading or event in the batch: their engine state is locked first. */
  wearerIds: string[];
}

type WithWearer = BraceletRow & { wearerId: string };
const hasWearer = (b: BraceletRow): b is WithWearer => b.wearerId !== null;

/** The item's bracelet if it belongs to the gateway's organisation and has a wearer; else refused. */
function braceletOf(
  list: 'readings' | 'events',
  entry: Indexed<{ serialNumber: string }>,
  bracelets: Map<string, BraceletRow>,
  rejected: RejectedItem[],
): WithWearer | null {
  const serial = entry.item.serialNumber;
  const bracelet = bracelets.get(serial);
  if (!bracelet) rejected.push({ list, index: entry.index, reason: `unknown bracelet ${serial}` });
  else if (hasWearer(bracelet)) return bracelet;
  else rejected.push({ list, index: entry.index, reason: `bracelet ${serial} has no wearer` });
  return null;
}

function toReading(
  item: BraceletReading,
  at: Date,
  bracelet: WithWearer,
  gateway: AuthenticatedGateway,
): ResolvedReading {
  const input: EngineInput = { kind: 'reading', at };
  if (item.heartRate !== undefined) input.heartRate = item.heartRate;
  if (item.skinTemperature !== undefined) input.skinTemperature = item.skinTemperature;
  if (item.worn !== undefined) input.worn = item.worn;
  if (item.steps !== undefined) input.steps = item.steps;
  if (item.sleepStage !== undefined) input.sleepStage = item.sleepStage;
  if (item.stressLevel !== undefined) input.stressLevel = item.stressLevel;
  if (item.battery !== undefined) input.battery = item.battery;
  return {
    row: {
      braceletId: bracelet.id,
      wearerId: bracelet.wearerId,
      timeZone: bracelet.timeZone,
      at,
      heartRate: item.heartRate ?? null,
      skinTemperature: item.skinTemperature ?? null,
      worn: item.worn ?? null,
      steps: item.steps ?? null,
      sleepStage: item.sleepStage ?? null,
      stressLevel: item.stressLevel ?? null,
      battery: item.battery ?? null,
      rssi: item.rssi ?? null,
      environmentGatewayId: bracelet.gatewayId ?? gateway.id,
      wbgt: null,
    },
    input,
    key: `${bracelet.id}|${at.getTime()}`,
    bracelet,
  };
}

/** After "resolve" (resolve.ts): when it is ingested, each item's bracelet and wearer, each reading converted once. */
export interface Resolved extends Parsed {
  now: Date;
  items: ResolvedBatch;
}

/**
 * Step "resolve", before the batch's transaction: the items' bracelets (from the cache, else one
 * read on the batch's lane), and each item resolved and converted once (resolveBatch).
 */
export async function resolve(ctx: AppContext, batch: Parsed): Promise<Resolved> {
  const now = ctx.now();
  const bracelets = await braceletsOf(ctx, batch.gateway.organizationId, batch.parsed.serials);
  return { ...batch, now, items: resolveBatch(batch.parsed, bracelets, batch.gateway) };
}

/**
 * Resolves each valid item to its bracelet (refusing unknown ones and those without a wearer),
 * converts it once, and keeps the first of items the batch carries twice (the others count as
 * duplicates).
 */
export function resolveBatch(
  parsed: ParsedBatch,
  bracelets: Map<string, BraceletRow>,
  gateway: AuthenticatedGateway,
): ResolvedBatch {
  const rejected = parsed.rejected;
  const sync = resolveSyncItems(parsed.sync, bracelets, rejected);
  const reported: BraceletRow[] = [];
  const wearers = new Set<string>();
  const positions = new Map<string, PositionRow>();
  const readings = new Map<string, ResolvedReading>();
  for (const entry of parsed.readings) {
    const bracelet = braceletOf('readings', entry, bracelets, rejected);
    if (!bracelet) continue;
    const reading = toReading(entry.item, entry.at, bracelet, gateway);
    if (readings.has(reading.key)) continue;
    readings.set(reading.key, reading);
    addPosition(positions, bracelet, entry.item.location);
    reported.push(bracelet);
    wearers.add(bracelet.wearerId);
  }
  const events = new Map<string, ResolvedEvent>();
  const unassigned = new Map<string, UnassignedEvent>();
  for (const entry of parsed.events) {
    const urgent = unassignedOf(entry.item, entry.at, bracelets);
    if (urgent) {
      const key = `${urgent.serialNumber}|${urgent.at.getTime()}|${urgent.type}`;
      if (!unassigned.has(key)) unassigned.set(key, urgent);
      continue;
    }
    const bracelet = braceletOf('events', entry, bracelets, rejected);
    if (!bracelet) continue;
    const event = toEvent(entry.item, entry.at, bracelet);
    if (events.has(event.key)) continue;
    events.set(event.key, event);
    addPosition(positions, bracelet, entry.item.location);
    reported.push(bracelet);
    wearers.add(bracelet.wearerId);
  }
  const environment = new Map<number, ResolvedBatch['environment'][number]>();
  for (const { item, at } of parsed.environment) {
    if (environment.has(at.getTime())) continue;
    environment.set(at.getTime(), {
      at,
      temperature: item.temperature ?? null,
      humidity: item.humidity ?? null,
      wbgt: item.wbgt ?? null,
    });
  }
  for (const p of sync.pairings) reported.push(p.bracelet);
  return {
    readings: [...readings.values()],
    events: [...events.values()],
    unassigned: [...unassigned.values()],
    environment: [...environment.values()],
    sync,
    positions: [...positions.values()],
    reported,
    wearerIds: [...wearers],
  };
}

/** The first position of a wearer at a time is kept (the table's key is wearer and time). */
function addPosition(
  positions: Map<string, PositionRow>,
  bracelet: WithWearer,
  location: GatewayLocation | undefined,
): void {
  if (!location) return;
  const at = new Date(location.at);
  const key = `${bracelet.wearerId}|${at.getTime()}`;
  if (positions.has(key)) return;
  const { latitude, longitude, accuracy } = location;
  positions.set(key, {
    wearerId: bracelet.wearerId,
    braceletId: bracelet.id,
    latitude,
    longitude,
    accuracy,
    at,
  });
}

function toEvent(item: DeviceEvent, at: Date, bracelet: WithWearer): ResolvedEvent {
  return {
    braceletId: bracelet.id,
    wearerId: bracelet.wearerId,
    type: item.type,
    at,
    location: item.location ? { ...item.location, at: new Date(item.location.at) } : null,
    cause: item.cause ?? null,
    rssi: item.rssi ?? null,
    key: `${bracelet.id}|${at.getTime()}|${item.type}`,
    bracelet,
  };
}

/**
 * An SOS or a fall no wearer would receive (an unknown serial, or a bracelet with no wearer): never
 * refused (issue 34). Any other event, or one of a worn bracelet: null (resolved as before).
 */
function unassignedOf(
  item: DeviceEvent,
  at: Date,
  bracelets: Map<string, BraceletRow>,
): UnassignedEvent | null {
  if (item.type !== 'SOS' && item.type !== 'FALL') return null;
  const bracelet = bracelets.get(item.serialNumber);
  if (bracelet && hasWearer(bracelet)) return null;
  return {
    serialNumber: item.serialNumber,
    braceletId: bracelet?.id ?? null,
    type: item.type,
    at,
    location: item.location ? { ...item.location, at: new Date(item.location.at) } : null,
    cause: item.cause ?? null,
  };
}
