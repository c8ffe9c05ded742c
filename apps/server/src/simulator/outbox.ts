import type {
  BraceletReading,
  DeviceEvent,
  EnvironmentReading,
  PairingEvent,
} from '@wearable/domain';
import type { SimEventRecord } from './events.js';

/** What one gateway sends in one batch. */
export interface OutboundBatch {
  gatewayId: string;
  readings: BraceletReading[];
  environment: EnvironmentReading[];
  events: DeviceEvent[];
  /** A gateway reporting bracelets it now hears after a link (the pairing watcher). */
  pairings?: PairingEvent[];
}

export type OutboundItem =
  | { at: number; gatewayId: string; list: 'readings'; item: BraceletReading }
  | { at: number; gatewayId: string; list: 'environment'; item: EnvironmentReading }
  | { at: number; gatewayId: string; list: 'events'; item: DeviceEvent };

/**
 * Items measured but not yet due. A minute is computed when it starts, but each item leaves
 * only when the clock reaches its own time, so nothing is ever sent ahead of the clock.
 */
export class Outbox {
  private pending: OutboundItem[] = [];
  private announcements: SimEventRecord[] = [];

  push(item: OutboundItem): void {
    this.pending.push(item);
  }

  /** A notable event, reported when its time comes. */
  announce(event: SimEventRecord): void {
    this.announcements.push(event);
  }

  /** Takes every item at or before `until`, grouped per gateway in time order. */
  release(until: number, onEvent?: (event: SimEventRecord) => void): OutboundBatch[] {
    this.pending.sort((a, b) => a.at - b.at);
    let count = 0;
    while (count < this.pending.length && this.pending[count]!.at <= until) count++;
    const due = this.pending.splice(0, count);
    const announced = this.announcements.filter((e) => Date.parse(e.at) <= until);
    this.announcements = this.announcements.filter((e) => Date.parse(e.at) > until);
    for (const event of announced) onEvent?.(event);

    const batches = new Map<string, OutboundBatch>();
    for (const q of due) {
      let batch = batches.get(q.gatewayId);
      if (!batch) {
        batch = { gatewayId: q.gatewayId, readings: [], environment: [], events: [] };
        batches.set(q.gatewayId, batch);
      }
      if (q.list === 'readings') batch.readings.push(q.item);
      else if (q.list === 'environment') batch.environment.push(q.item);
      else batch.events.push(q.item);
    }
    return [...batches.values()];
  }
}
