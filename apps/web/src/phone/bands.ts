import {
  GATT,
  type HeartRateMeasurement,
  decodeBatteryLevel,
  decodeHeartRateMeasurement,
  decodeTemperatureMeasurement,
  heartRateReadingFields,
  temperatureReadingFields,
} from '@wearable/domain';
import type { KnownBand } from './store';

export type BandStatus = 'connecting' | 'connected' | 'reconnecting' | 'lost';

export interface BandView extends KnownBand {
  status: BandStatus;
  /** When the link dropped (reconnecting, lost). */
  since: number | null;
  heartRate: number | null;
  worn: boolean | null;
  battery: number | null;
  skinTemperature: number | null;
  /** The last value the phone could not decode, with the decoder's reason. */
  lastRefusal: string | null;
}

export interface BandReading {
  serialNumber: string;
  heartRate?: number;
  worn?: boolean;
  battery?: number;
  skinTemperature?: number;
}

interface Listener {
  onChange: (bands: BandView[]) => void;
  /** A reading to queue (at most one per band every READING_EVERY_MS, and at once when worn changes). */
  onReading: (reading: BandReading) => void;
  /** The phone hears the band (the protocol's pairing event): at every connection. */
  onHeard: (band: KnownBand) => void;
  onWornChange: (band: KnownBand, worn: boolean) => void;
}

export const READING_EVERY_MS = 5000;
/**
 * A characteristic that also allows reading and has been silent this long is read (the value arrives through
 * the same listener as a notification). A band notifying at 1 Hz is never read; one that only answers reads
 * still gives values. `localStorage['phone.quietReadMs']` changes it (diagnostics and the CPU bench).
 */
export const QUIET_READ_MS = 5000;
/** After this long without the link, "reconnecting" becomes "lost since HH:MM" (the phone keeps trying). */
export const LOST_AFTER_MS = 60_000;
const MAX_RECONNECT_DELAY_MS = 60_000;

const uuid = (n: number) => BluetoothUUID.canonicalUUID(n);

/** A band's serial number in the batch: the name and the id this phone sees (printable ASCII, 64 at most). */
export function bandSerialNumber(name: string | undefined, id: string): string {
  const clean = (s: string) => s.replace(/[^\x21-\x7e]+/g, '-');
  const base = clean(name ?? '').replace(/^-+|-+$/g, '') || 'BAND';
  return `${base.slice(0, 63 - Math.min(id.length, 40))}-${clean(id).slice(0, 40)}`;
}

export function hasWebBluetooth(): boolean {
  return typeof navigator !== 'undefined' && 'bluetooth' in navigator;
}

interface Link {
  device: BluetoothDevice;
  view: BandView;
  attempt: number;
  retry: ReturnType<typeof setTimeout> | null;
  quiet: Map<BluetoothRemoteGATTCharacteristic, ReturnType<typeof setTimeout>>;
  lastReadingAt: number;
  removed: boolean;
}

/** The bands this phone listens to: connects, decodes, reconnects with backoff. */
export class Bands {
  private readonly links = new Map<string, Link>();
  private readonly quietReadMs: number;

  constructor(private readonly listener: Listener) {
    const stored = Number(globalThis.localStorage?.getItem('phone.quietReadMs'));
    this.quietReadMs = Number.isFinite(stored) && stored >= 200 ? stored : QUIET_READ_MS;
  }

  views(): BandView[] {
    return [...this.links.values()].map((l) => l.view);
  }

  /** Opens the browser's chooser (needs a tap). */
  async choose(): Promise<KnownBand | null> {
    const device = await navigator.bluetooth.requestDevice({
      filters: [{ services: [uuid(GATT.heartRateService)] }],
      optionalServices: [uuid(GATT.batteryService), uuid(GATT.healthThermometerService)],
    });
    const band = {
      id: device.id,
      name: device.name ?? '',
      serialNumber: bandSerialNumber(device.name, device.id),
    };
    this.track(device, band);
    return band;
  }

  /** Bands chosen before a reload: the browser hands them back without a chooser where it can. */
  async restore(known: KnownBand[]): Promise<void> {
    if (known.length === 0 || !hasWebBluetooth() || !navigator.bluetooth.getDevices) return;
    const devices = await navigator.bluetooth.getDevices().catch(() => []);
    for (const band of known) {
      const device = devices.find((d) => d.id === band.id);
      if (device && !this.links.has(band.id)) this.track(device, band);
    }
  }

  remove(id: string): void {
    const link = this.links.get(id);
    if (!link) return;
    link.removed = true;
    if (link.retry) clearTimeout(link.retry);
    for (const timer of link.quiet.values()) clearTimeout(timer);
    link.device.gatt?.disconnect();
    this.links.delete(id);
    this.changed();
  }

  private track(device: BluetoothDevice, band: KnownBand): void {
    const existing = this.links.get(band.id);
    if (existing) return;
    const link: Link = {
      device,
      view: {
        ...band,
        status: 'connecting',
        since: null,
        heartRate: null,
        worn: null,
        battery: null,
        skinTemperature: null,
        lastRefusal: null,
      },
      attempt: 0,
      retry: null,
      quiet: new Map(),
      lastReadingAt: 0,
      removed: false,
    };
    this.links.set(band.id, link);
    device.addEventListener('gattserverdisconnected', () => this.dropped(link));
    this.changed();
    void this.connect(link);
  }

  private update(link: Link, patch: Partial<BandView>): void {
    link.view = { ...link.view, ...patch };
    this.changed();
  }

  private changed(): void {
    this.listener.onChange(this.views());
  }

  private dropped(link: Link): void {
    if (link.removed) return;
    for (const timer of link.quiet.values()) clearTimeout(timer);
    link.quiet.clear();
    this.update(link, { status: 'reconnecting', since: link.view.since ?? Date.now() });
    this.scheduleReconnect(link);
  }

  private scheduleReconnect(link: Link): void {
    if (link.removed || link.retry) return;
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, 1000 * 2 ** link.attempt);
    link.attempt += 1;
    link.retry = setTimeout(() => {
      link.retry = null;
      void this.connect(link);
    }, delay);
  }

  private async connect(link: Link): Promise<void> {
    const gatt = link.device.gatt;
    if (!gatt || link.removed) return;
    try {
      const server = await gatt.connect();
      await this.subscribe(link, server);
      link.attempt = 0;
      this.update(link, { status: 'connected', since: null });
      this.listener.onHeard(link.view);
    } catch {
      if (link.removed) return;
      const since = link.view.since ?? Date.now();
      const lost = Date.now() - since >= LOST_AFTER_MS;
      this.update(link, { status: lost ? 'lost' : 'reconnecting', since });
      this.scheduleReconnect(link);
    }
  }

  private async subscribe(link: Link, server: BluetoothRemoteGATTServer): Promise<void> {
    const hr = await server.getPrimaryService(uuid(GATT.heartRateService));
    const hrm = await hr.getCharacteristic(uuid(GATT.heartRateMeasurement));
    this.listen(link, hrm, (value) => this.heartRate(link, value));
    await hrm.startNotifications();
    // A band whose measurement may also be read gives its current value at once.
    if (hrm.properties.read) await hrm.readValue().catch(() => undefined);
    this.quietRead(link, hrm);

    const battery = await server.getPrimaryService(uuid(GATT.batteryService)).catch(() => null);
    const level = await battery?.getCharacteristic(uuid(GATT.batteryLevel)).catch(() => null);
    if (level) {
      this.listen(link, level, (value) => {
        const decoded = decodeBatteryLevel(value);
        if (decoded.ok) this.update(link, { battery: decoded.value.percent });
        else this.update(link, { lastRefusal: decoded.reason });
      });
      if (level.properties.notify) await level.startNotifications().catch(() => undefined);
      if (level.properties.read) await level.readValue().catch(() => undefined);
    }

    const thermo = await server
      .getPrimaryService(uuid(GATT.healthThermometerService))
      .catch(() => null);
    const temperature =
      (await thermo?.getCharacteristic(uuid(GATT.temperatureMeasurement)).catch(() => null)) ??
      (await thermo?.getCharacteristic(uuid(GATT.intermediateTemperature)).catch(() => null));
    if (temperature) {
      this.listen(link, temperature, (value) => {
        const decoded = decodeTemperatureMeasurement(value);
        if (decoded.ok)
          this.update(link, {
            skinTemperature: temperatureReadingFields(decoded.value).skinTemperature ?? null,
          });
        else this.update(link, { lastRefusal: decoded.reason });
      });
      await temperature.startNotifications().catch(() => undefined);
    }
  }

  private listen(
    link: Link,
    characteristic: BluetoothRemoteGATTCharacteristic,
    handle: (value: DataView) => void,
  ): void {
    // A reconnection gives new characteristic objects; the old ones are gone with the old link.
    characteristic.addEventListener('characteristicvaluechanged', () => {
      if (link.removed || !characteristic.value) return;
      handle(characteristic.value);
      if (link.quiet.has(characteristic)) this.quietRead(link, characteristic);
    });
  }

  /** Re-arms the silence timer of a readable characteristic (no timer for a notify-only one). */
  private quietRead(link: Link, characteristic: BluetoothRemoteGATTCharacteristic): void {
    if (!characteristic.properties.read) return;
    const previous = link.quiet.get(characteristic);
    if (previous) clearTimeout(previous);
    link.quiet.set(
      characteristic,
      setTimeout(() => {
        if (link.view.status !== 'connected') return;
        characteristic.readValue().catch(() => this.quietRead(link, characteristic));
      }, this.quietReadMs),
    );
  }

  private heartRate(link: Link, value: DataView): void {
    const decoded = decodeHeartRateMeasurement(value);
    if (!decoded.ok) {
      this.update(link, { lastRefusal: decoded.reason });
      return;
    }
    const hrm: HeartRateMeasurement = decoded.value;
    const fields = heartRateReadingFields(hrm);
    const wornChanged = hrm.worn !== null && link.view.worn !== null && hrm.worn !== link.view.worn;
    this.update(link, {
      heartRate: fields.heartRate ?? null,
      worn: hrm.worn,
      lastRefusal: null,
    });
    if (wornChanged && hrm.worn !== null) this.listener.onWornChange(link.view, hrm.worn);
    const now = Date.now();
    if (!wornChanged && now - link.lastReadingAt < READING_EVERY_MS) return;
    link.lastReadingAt = now;
    const { battery, skinTemperature } = link.view;
    this.listener.onReading({
      serialNumber: link.view.serialNumber,
      ...fields,
      ...(battery === null ? {} : { battery }),
      ...(skinTemperature === null ? {} : { skinTemperature }),
    });
  }
}
