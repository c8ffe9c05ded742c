import type { Sighting } from '../../adapters/adapter-output.js';
import type { Queryable } from '../../db/client.js';
import { type HeardDevice, vendorGatewaysRepository } from './vendor-gateways.repository.js';

/** How often the devices heard and not registered are written: the list is at most this late. */
export const UNKNOWN_DEVICES_WRITE_MS = 5_000;
/** Devices waiting (all gateways) beyond which a write starts at once, so memory stays bounded. */
const MAX_WAITING = 50_000;

interface GatewayDevices {
  organizationId: string;
  devices: Map<string, HeardDevice>;
}

/**
 * The "heard, not registered" list gathered in memory between writes: per gateway its devices'
 * latest sighting, at most `cap` (the most recently heard, as the table keeps), written every
 * UNKNOWN_DEVICES_WRITE_MS in two statements for all gateways instead of two per request. Writes
 * run one after another, so a later sighting is never overwritten by an earlier one. Listing a
 * gateway's devices writes its waiting ones first (`flush(gatewayId)`): this server's staff see
 * them at once, another server's within the interval.
 */
export class UnknownDevicesBuffer {
  private waiting = new Map<string, GatewayDevices>();
  private count = 0;
  private writes: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private onError: (err: unknown) => void = () => undefined;

  constructor(
    private readonly db: Queryable,
    private readonly cap: number,
  ) {}

  /** A request's devices not registered (the latest sighting of each). */
  add(gateway: { id: string; organizationId: string }, sightings: Sighting[]): void {
    if (sightings.length === 0) return;
    let entry = this.waiting.get(gateway.id);
    if (!entry) {
      entry = { organizationId: gateway.organizationId, devices: new Map() };
      this.waiting.set(gateway.id, entry);
    }
    const devices = entry.devices;
    const before = devices.size;
    for (const s of sightings) {
      const seen = devices.get(s.deviceId);
      const rssi = s.rssi === null ? null : Math.round(s.rssi);
      if (!seen) {
        devices.set(s.deviceId, {
          gatewayId: gateway.id,
          deviceId: s.deviceId,
          frame: s.frame,
          rssi,
          beaconId: s.beaconId ?? null,
          firstHeardAt: s.at,
          lastHeardAt: s.at,
          times: 1,
        });
        continue;
      }
      seen.times++;
      if (s.at < seen.firstHeardAt) seen.firstHeardAt = s.at;
      if (s.at >= seen.lastHeardAt) {
        Object.assign(seen, { frame: s.frame, rssi, beaconId: s.beaconId ?? null });
        seen.lastHeardAt = s.at;
      }
    }
    if (devices.size > this.cap) {
      // A flood of new tags: keep the most recently heard, as the table would.
      const kept = [...devices.values()]
        .sort((a, b) =>
          a.lastHeardAt === b.lastHeardAt
            ? a.deviceId < b.deviceId
              ? -1
              : 1
            : a.lastHeardAt < b.lastHeardAt
              ? 1
              : -1,
        )
        .slice(0, this.cap);
      entry.devices = new Map(kept.map((d) => [d.deviceId, d]));
    }
    this.count += entry.devices.size - before;
    if (this.count > MAX_WAITING) void this.flush().catch(this.onError);
  }

  /** The device was registered as a bracelet of this organisation: it is no longer waiting anywhere. */
  forget(organizationId: string, deviceId: string): void {
    for (const entry of this.waiting.values()) {
      if (entry.organizationId === organizationId && entry.devices.delete(deviceId)) this.count--;
    }
  }

  /**
   * Writes what is waiting (only `gatewayId`'s, when given); resolves when it and every write begun
   * before it are done.
   */
  flush(gatewayId?: string): Promise<void> {
    const devices: HeardDevice[] = [];
    for (const [id, entry] of this.waiting) {
      if (gatewayId !== undefined && id !== gatewayId) continue;
      devices.push(...entry.devices.values());
      this.count -= entry.devices.size;
      this.waiting.delete(id);
    }
    const write = this.writes.then(() =>
      vendorGatewaysRepository(this.db).recordUnknown(devices, this.cap),
    );
    // A failed write is reported once and dropped: the next requests hear the devices again.
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Writes every UNKNOWN_DEVICES_WRITE_MS until close(). */
  start(onError: (err: unknown) => void): void {
    this.onError = onError;
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.count > 0) this.flush().catch(onError);
    }, UNKNOWN_DEVICES_WRITE_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what is waiting (before the database closes). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
