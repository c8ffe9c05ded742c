import type { EventEmitter } from 'node:events';
import type { WearerUpdatedEvent } from './events.js';

const MIN_INTERVAL_MS = 1000;

interface Pending {
  lastEmit: number;
  timer: NodeJS.Timeout | null;
  event: WearerUpdatedEvent;
}
/** Pending trailing events per wearer; a named field of the app context. */
export interface WearerUpdates {
  pending: Map<string, Pending>;
  /** Drops the trailing events not yet sent (app close). */
  close(): void;
}
export function createWearerUpdates(): WearerUpdates {
  const pending = new Map<string, Pending>();
  return {
    pending,
    close() {
      for (const entry of pending.values()) if (entry.timer) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}

/**
 * Emits 'wearer.updated' at most once a second per wearer: the first change at once, later
 * ones folded into one trailing event (a gateway sends every second; screens need no more).
 */
export function notifyWearerUpdated(
  ctx: { wearerUpdates: WearerUpdates; bus: EventEmitter },
  event: WearerUpdatedEvent,
): void {
  const pending = ctx.wearerUpdates.pending;
  const now = Date.now();
  const entry = pending.get(event.wearerId);
  if (!entry || (!entry.timer && now - entry.lastEmit >= MIN_INTERVAL_MS)) {
    pending.set(event.wearerId, { lastEmit: now, timer: null, event });
    ctx.bus.emit('wearer.updated', event);
    return;
  }
  entry.event = event;
  if (entry.timer) return;
  const map = pending;
  entry.timer = setTimeout(
    () => {
      entry.timer = null;
      entry.lastEmit = Date.now();
      ctx.bus.emit('wearer.updated', entry.event);
      if (map.get(event.wearerId) === entry && map.size > 10_000) map.delete(event.wearerId);
    },
    MIN_INTERVAL_MS - (now - entry.lastEmit),
  );
  entry.timer.unref();
}
