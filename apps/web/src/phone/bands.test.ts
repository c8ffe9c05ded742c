import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BandReading, type BandView, Bands, bandSerialNumber } from './bands';

// The serial number a band gets in the batch: what staff type when they register it (printable ASCII, 64 at most).
describe('bandSerialNumber', () => {
  it('joins the name and the id the browser gives the band', () => {
    expect(bandSerialNumber('HRM-1', 's3dY2LY/4J2TCTjO03ZCJg==')).toBe(
      'HRM-1-s3dY2LY/4J2TCTjO03ZCJg==',
    );
  });

  it('replaces spaces and non-ASCII, names a nameless band, and stays within 64 characters', () => {
    expect(bandSerialNumber('Polar H10 8C2B', 'abc')).toBe('Polar-H10-8C2B-abc');
    expect(bandSerialNumber('心拍ベルト', 'abc')).toBe('BAND-abc');
    expect(bandSerialNumber(undefined, 'abc')).toBe('BAND-abc');
    const long = bandSerialNumber('x'.repeat(100), 'y'.repeat(60));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[\x21-\x7e]+$/);
    expect(long.endsWith('y'.repeat(40))).toBe(true);
  });
});

// ---- A band that walks away: the link, the backoff and what the screen is told ----

/** A Bluetooth heart-rate band as the page sees it: its GATT server connects while `inRange`, refuses otherwise. */
function fakeBand() {
  const band = {
    inRange: true,
    connects: 0,
    device: null as unknown as BluetoothDevice,
    hrm: null as unknown as BluetoothRemoteGATTCharacteristic & EventTarget,
    /** The band notifies a Heart Rate Measurement (flags 0x06: uint8, contact supported and detected). */
    notify(bpm: number) {
      Object.defineProperty(band.hrm, 'value', {
        value: new DataView(new Uint8Array([0x06, bpm]).buffer),
        configurable: true,
      });
      band.hrm.dispatchEvent(new Event('characteristicvaluechanged'));
    },
    /** The link drops (the browser's gattserverdisconnected). */
    drop() {
      band.device.dispatchEvent(new Event('gattserverdisconnected'));
    },
  };
  const hrm = Object.assign(new EventTarget(), {
    // Notify only: no reads, so no quiet-read timer in the way of the backoff's.
    properties: { notify: true, read: false },
    startNotifications: async () => hrm,
    readValue: async () => new DataView(new ArrayBuffer(0)),
  });
  band.hrm = hrm as unknown as typeof band.hrm;
  const server = {
    getPrimaryService: async (uuid: string) => {
      if (uuid !== canonical(0x180d)) throw new Error('NotFoundError');
      return { getCharacteristic: async () => hrm };
    },
  };
  const device = Object.assign(new EventTarget(), {
    id: 's3dY2LY/4J2TCTjO03ZCJg==',
    name: 'HRM-1',
    gatt: {
      connect: async () => {
        band.connects += 1;
        if (!band.inRange) throw new Error('NetworkError: connection failed');
        return server;
      },
      disconnect: () => undefined,
    },
  });
  band.device = device as unknown as BluetoothDevice;
  return band;
}

const canonical = (n: number) =>
  `0000${n.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;

describe('Bands: a band that walks away', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says reconnecting since the drop, retries at 1, 3, 7, 15, 31 s, says lost at the first failure after a minute, and is connected again when back', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T04:30:10Z') });
    const band = fakeBand();
    vi.stubGlobal('BluetoothUUID', { canonicalUUID: canonical });
    vi.stubGlobal('navigator', { bluetooth: { requestDevice: async () => band.device } });
    let views: BandView[] = [];
    const readings: BandReading[] = [];
    const heard: string[] = [];
    const bands = new Bands({
      onChange: (v) => (views = v),
      onReading: (r) => readings.push(r),
      onHeard: (b) => heard.push(b.serialNumber),
      onWornChange: () => undefined,
    });
    const view = () => views[0]!;

    await bands.choose();
    await vi.advanceTimersByTimeAsync(0);
    expect(view()).toMatchObject({ status: 'connected', since: null });
    expect(heard).toEqual(['HRM-1-s3dY2LY/4J2TCTjO03ZCJg==']);
    band.notify(72);
    expect(view().heartRate).toBe(72);
    expect(readings).toEqual([
      { serialNumber: 'HRM-1-s3dY2LY/4J2TCTjO03ZCJg==', heartRate: 72, worn: true },
    ]);

    // The band walks away: the screen says since when at once; nothing is read or queued while it is gone.
    band.inRange = false;
    const droppedAt = Date.now();
    band.drop();
    expect(view()).toMatchObject({ status: 'reconnecting', since: droppedAt });
    const connects = band.connects;
    const attemptsAfter = async (seconds: number) => {
      await vi.advanceTimersByTimeAsync(droppedAt + seconds * 1000 - Date.now());
      return band.connects - connects;
    };
    expect(await attemptsAfter(0.999)).toBe(0);
    expect(await attemptsAfter(1)).toBe(1);
    expect(await attemptsAfter(2.999)).toBe(1);
    expect(await attemptsAfter(3)).toBe(2);
    expect(await attemptsAfter(7)).toBe(3);
    expect(await attemptsAfter(15)).toBe(4);
    expect(await attemptsAfter(31)).toBe(5);
    // Still "reconnecting" a minute in: "lost" comes with the next failed attempt (63 s), since the same time.
    expect(await attemptsAfter(62)).toBe(5);
    expect(view()).toMatchObject({ status: 'reconnecting', since: droppedAt });
    expect(await attemptsAfter(63)).toBe(6);
    expect(view()).toMatchObject({ status: 'lost', since: droppedAt });
    // The delay stops growing at a minute.
    expect(await attemptsAfter(123)).toBe(7);
    expect(await attemptsAfter(183)).toBe(8);
    expect(readings).toHaveLength(1);

    // Back in range: the next attempt connects, the phone reports hearing it again, and the backoff starts over.
    band.inRange = true;
    expect(await attemptsAfter(243)).toBe(9);
    expect(view()).toMatchObject({ status: 'connected', since: null });
    expect(heard).toHaveLength(2);
    band.inRange = false;
    const again = Date.now();
    band.drop();
    expect(view()).toMatchObject({ status: 'reconnecting', since: again });
    await vi.advanceTimersByTimeAsync(1000);
    expect(band.connects - connects).toBe(10);
    bands.remove(view().id);
  });
});
