import type { GatewayStatusReport, IncomingGatewayBatch } from '@wearable/domain';
import {
  type Indexed,
  type ParsedItems,
  parseBatchItems,
  parseGatewayStatus,
} from './batch-items.js';
import { parseSyncItems, type SyncItems } from './bracelet-sync.js';

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

export function parseBatch(batch: IncomingGatewayBatch, now: Date): ParsedBatch {
  const items = parseBatchItems(batch, now);
  const sync = parseSyncItems(batch, items.rejected);
  const status = parseGatewayStatus(batch.status, now, items.rejected);
  const serials = new Set<string>();
  for (const list of [items.readings, items.events, sync.pairings, sync.acks])
    for (const e of list) serials.add(e.item.serialNumber);
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
