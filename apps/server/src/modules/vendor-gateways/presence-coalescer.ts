import type { BraceletReading } from '@wearable/domain';

/** The gateway a window belongs to (structurally the authenticated gateway `ingestBatch` takes). */
export interface PresenceGateway {
  id: string;
  organizationId: string;
}

/** At most this many (gateway, tag) windows are open; beyond, presence passes uncoalesced. */
export const MAX_PRESENCE_WINDOWS = 100_000;
/** A window's readings are stored in batches of at most this many per gateway. */
const BATCH_READINGS = 1000;

/** How often windows are checked for their end: a window's reading is at most this late (10 ms..1 s). */
export const presenceSweepMs = (intervalMs: number): number =>
  Math.max(10, Math.min(1000, Math.floor(intervalMs / 10)));

/** The strongest signal and the latest time heard in a window, not stored yet. */
interface Pending {
  at: string;
  rssi: number | undefined;
}

interface PresenceWindow {
  gateway: PresenceGateway;
  serialNumber: string;
  /** When the window began (ms, the app's clock). */
  start: number;
  /** Sightings folded since the window began; null when none. */
  pending: Pending | null;
}

/** Stores a window's folded presence: the same `ingestBatch` as a request's batch. */
export type EmitPresence = (
  gateway: PresenceGateway,
  readings: BraceletReading[],
) => Promise<unknown>;

/**
 * A merely heard tag's presence, coalesced (issue 18): a gateway reports every tag in every
 * advertisement (an AB BLE Gateway V4 up to 210 a second), and a presence reading per tag per
 * second is millions of rows a day that tell a site nothing more. Per gateway and registered tag,
 * within a window of `intervalMs`:
 *
 * - the first sighting passes at once (a tag newly present, or back after a silent window, is a
 *   reading now: DISCONNECTION closes and the place updates at once);
 * - later sightings are folded (the latest time, the strongest signal) and stored as one presence
 *   reading when the window ends (`sweep`, every `sweepMs`), which begins the next window; a
 *   window that ends with nothing folded is forgotten, so the tag's next sighting passes at once;
 * - a sighting arriving after its window ended (a sweep not run yet) passes at once and begins a
 *   new window; what was folded is dropped, since this reading is newer.
 *
 * Only presence goes through here: events (SOS, FALL, a button) and readings carrying measured
 * values (heart rate, battery) never wait. Per gateway, because the place fold keeps each
 * gateway's signal (the strongest gateway still wins). At most `max` windows (in memory, like the
 * "heard, not registered" list): beyond, presence passes at once. `close` stores what is folded.
 * Several server processes each coalesce what they receive, which stays correct (at most one
 * reading per window per process).
 */
export class PresenceCoalescer {
  private readonly windows = new Map<string, PresenceWindow>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  /** Where folded presence goes; until `start` gives it, nothing is coalesced. */
  private emit: EmitPresence | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
    private readonly max = MAX_PRESENCE_WINDOWS,
  ) {}

  /** Windows open now (for tests and the bound). */
  get size(): number {
    return this.windows.size;
  }

  /**
   * A request's presence readings (one per tag, `{ serialNumber, at, rssi? }`): returns those that
   * pass now; the others are folded into their window.
   */
  admit(gateway: PresenceGateway, presence: BraceletReading[]): BraceletReading[] {
    if (this.intervalMs === 0 || this.emit === null) return presence;
    const now = this.now();
    const passing: BraceletReading[] = [];
    for (const reading of presence) {
      const key = `${gateway.id}\u0000${reading.serialNumber}`;
      const window = this.windows.get(key);
      if (window && now >= window.start && now < window.start + this.intervalMs) {
        window.gateway = gateway;
        window.pending = fold(window.pending, reading);
        continue;
      }
      passing.push(reading);
      if (window) {
        window.start = now;
        window.pending = null;
      } else if (this.windows.size < this.max) {
        this.windows.set(key, {
          gateway,
          serialNumber: reading.serialNumber,
          start: now,
          pending: null,
        });
      }
    }
    return passing;
  }

  /**
   * The bracelet changed (registered, linked, handed over, unlinked): its windows are dropped, so
   * its next sighting passes at once under the new link (what was folded was of the old one).
   */
  forget(serialNumber: string): void {
    for (const [key, window] of this.windows) {
      if (window.serialNumber === serialNumber) this.windows.delete(key);
    }
  }

  /**
   * Stores the folded presence of every window that has ended (one batch per gateway), begins
   * the next window for those, and forgets windows that ended with nothing folded. Resolves when
   * the batches are stored; a sweep already running is waited for instead of starting another.
   */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.emitEnded(false, this.emit).finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async emitEnded(all: boolean, emit: EmitPresence | null): Promise<void> {
    const now = this.now();
    const due = new Map<string, { gateway: PresenceGateway; readings: BraceletReading[] }>();
    for (const [key, window] of this.windows) {
      const end = window.start + this.intervalMs;
      // A clock moved back (tests) ends the window too: it must not stay open for ever.
      if (!all && now < end && now >= window.start) continue;
      if (window.pending === null) {
        this.windows.delete(key);
        continue;
      }
      let batch = due.get(window.gateway.id);
      if (!batch) {
        batch = { gateway: window.gateway, readings: [] };
        due.set(window.gateway.id, batch);
      }
      const { at, rssi } = window.pending;
      batch.readings.push({
        serialNumber: window.serialNumber,
        at,
        ...(rssi === undefined ? {} : { rssi }),
      });
      if (all) this.windows.delete(key);
      else {
        // The next window follows on (one reading per window while the tag is heard); a sweep
        // later than a whole window begins it now.
        window.start = now - end < this.intervalMs && now >= end ? end : now;
        window.pending = null;
      }
    }
    const failures: unknown[] = [];
    for (const { gateway, readings } of due.values()) {
      // At most BATCH_READINGS a batch (a native batch's limit is 5,000 readings). A failed batch is
      // reported and dropped: presence only, the tag's next window stores it again.
      for (let i = 0; i < readings.length; i += BATCH_READINGS) {
        await emit?.(gateway, readings.slice(i, i + BATCH_READINGS)).catch((err: unknown) =>
          failures.push(err),
        );
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  /** Coalesces from now on: folded presence goes to `emit`, swept every `sweepMs` until close(). */
  start(emit: EmitPresence, sweepMs: number, onError: (err: unknown) => void): void {
    this.emit = emit;
    if (this.intervalMs === 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.windows.size > 0) this.sweep().catch(onError);
    }, sweepMs);
    this.timer.unref();
  }

  /** Stops the timer and stores everything folded (before the database closes). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // From now on presence passes at once (a request still in flight), what is folded is stored.
    const emit = this.emit;
    this.emit = null;
    if (this.sweeping) await this.sweeping.catch(() => undefined);
    await this.emitEnded(true, emit);
  }
}

/** The latest time and the strongest signal (an absent signal never replaces a known one). */
function fold(pending: Pending | null, reading: BraceletReading): Pending {
  if (pending === null) return { at: reading.at, rssi: reading.rssi };
  const rssi =
    reading.rssi === undefined
      ? pending.rssi
      : pending.rssi === undefined
        ? reading.rssi
        : Math.max(pending.rssi, reading.rssi);
  return { at: reading.at > pending.at ? reading.at : pending.at, rssi };
}
