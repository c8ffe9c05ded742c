import {
  type GatewayStatusReport,
  type IncomingGatewayBatch,
  normalizeSerial,
} from '@wearable/domain';
import {
  type Indexed,
  type ParsedItems,
  parseBatchItems,
  parseGatewayStatus,
} from '../batch-items.js';
import type { AppContext } from '../../../context.js';
import { parseSyncItems, type SyncItems } from '../bracelet-sync.js';
import type { AuthenticatedGateway } from '../gateway-auth.js';

/** A batch read once: its valid items, the refused ones, and whether it is urgent. */
export interface ParsedBatch extends ParsedItems {
  batchId: string | undefined;
  sync: SyncItems;
  /** The gateway's own status (battery, app version), when it sent a valid one. */
  status: Indexed<GatewayStatusReport> | null;
  /**
   * A valid SOS or fall of now is in it: the batch takes the database's priority lane and is
   * never refused for back-pressure. Decided here only, from validated items (a bogus SOS does
   * not skip back-pressure).
   */
  urgent: boolean;
  /** The serial numbers of its valid items (readings, events, pairings, acknowledgements). */
  serials: string[];
  /** How many items it carried, valid or not. */
  itemCount: number;
}

/** After "parse" (parse.ts): who sent it, its items validated once, its urgency decided once. */
export interface Parsed {
  gateway: AuthenticatedGateway;
  parsed: ParsedBatch;
}

/**
 * Step "parse", where every way in enters (the native HTTP route, MQTT, phones, the vendor
 * gateways, the simulator): each item validated once, urgency decided once. `parsed`: the batch
 * the caller parsed already (the HTTP route, for its back-pressure), so no item is parsed twice.
 */
export const parse = (
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  raw: IncomingGatewayBatch,
  parsed: ParsedBatch = parseBatch(raw, ctx.now()),
): Parsed => ({ gateway, parsed });

export function parseBatch(batch: IncomingGatewayBatch, now: Date): ParsedBatch {
  const items = parseBatchItems(batch, now);
  const sync = parseSyncItems(batch, items.rejected);
  const status = parseGatewayStatus(batch.status, now, items.rejected);
  const serials = new Set<string>();
  // Serials are matched case-insensitively: each item's is normalised once, here (the parsed item
  // is the schema's copy, not the gateway's), as bracelets store theirs (migration 033).
  // A batch names few bracelets many times: each distinct serial is normalised once.
  const normal = new Map<string, string>();
  for (const list of [items.readings, items.events, sync.pairings, sync.acks])
    for (const e of list) {
      const sent = e.item.serialNumber;
      let serial = normal.get(sent);
      if (serial === undefined) {
        serial = normalizeSerial(sent);
        normal.set(sent, serial);
      }
      e.item.serialNumber = serial;
      serials.add(serial);
    }
  return {
    ...items,
    batchId: batch.batchId,
    sync,
    status,
    urgent: items.events.some((e) => e.item.type === 'SOS' || e.item.type === 'FALL'),
    serials: [...serials],
    itemCount:
      (batch.readings?.length ?? 0) +
      (batch.environment?.length ?? 0) +
      (batch.events?.length ?? 0) +
      (batch.pairings?.length ?? 0) +
      (batch.configAcks?.length ?? 0) +
      (batch.status !== undefined ? 1 : 0),
  };
}
