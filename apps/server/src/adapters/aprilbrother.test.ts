// Vectors: April Brother AB BLE Gateway V4 user guide, "Data Format" and "Example data for key devices"
// (wiki.aprbrother.com/en/User_Guide_For_AB_BLE_Gateway_V4.html): the device frames
// 00 123B6A1A64CF AA 0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5 (RSSI 0xAA - 256 = -86) and
// 02 C8FD1949A530 CE 0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0; the message keys
// v, mid, time, ip, mac, devices as the guide lists them, packed here with @msgpack/msgpack.
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { decodeAprilBrother } from './aprilbrother.js';

const receivedAt = new Date('2026-11-26T01:02:03.000Z');
const at = receivedAt.toISOString();
const DEVICE_1 = Buffer.from(
  '00123B6A1A64CFAA0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5',
  'hex',
);
const DEVICE_2 = Buffer.from(
  '02C8FD1949A530CE0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0',
  'hex',
);
const message = (devices: unknown[]) =>
  encode({ v: '1.5.5', mid: 1042, time: 86_400, ip: '192.168.1.20', mac: 'C8FD19000001', devices });

describe('decodeAprilBrother', () => {
  it('decodes the guide’s device frames: advertising type, MAC, RSSI and the advertisement', () => {
    const out = decodeAprilBrother(message([DEVICE_1, DEVICE_2]), receivedAt);
    expect(out.refused).toEqual([]);
    expect(out.sightings).toEqual([
      {
        deviceId: '123B6A1A64CF',
        rssi: -86,
        at,
        frame: 'ibeacon',
        beaconId: 'B5B182C7EAB14988AA99B5C1517008D9/1/53092',
      },
      {
        deviceId: 'C8FD1949A530',
        rssi: -50,
        at,
        frame: 'ibeacon',
        beaconId: 'EB6D469624BE4663B15230D46B0E9CC9/13/42',
      },
    ]);
  });

  it('refuses short or garbled device entries and keeps the others', () => {
    const out = decodeAprilBrother(
      message([
        Buffer.from('00123B6A1A64', 'hex'),
        Buffer.from('00123B6A1A64CFAA0201061AFF4C00', 'hex'),
        42,
        'ZZ',
        DEVICE_2,
      ]),
      receivedAt,
    );
    expect(out.refused).toEqual([
      { item: 0, reason: 'device is 6 bytes, shorter than type, MAC and RSSI (8)' },
      { item: 1, reason: 'AD structure at byte 3 declares 26 bytes, only 3 left' },
      { item: 2, reason: 'device is neither binary nor hex text' },
      { item: 3, reason: 'device is not hex (an even number of 0-9A-F digits)' },
    ]);
    expect(out.sightings.map((s) => s.deviceId)).toEqual(['C8FD1949A530']);
  });

  it('refuses huge declared lengths before allocating anything', () => {
    // fixmap(1) "devices" -> array32 declaring 4,294,967,295 elements.
    const hugeArray = Buffer.concat([
      Buffer.from([0x81]),
      Buffer.from(encode('devices')),
      Buffer.from('ddffffffff', 'hex'),
    ]);
    // fixmap(1) "devices" -> fixarray(1) -> bin32 declaring 4,294,967,280 bytes.
    const hugeBin = Buffer.concat([
      Buffer.from([0x81]),
      Buffer.from(encode('devices')),
      Buffer.from('91c6fffffff0', 'hex'),
    ]);
    for (const body of [hugeArray, hugeBin]) {
      const out = decodeAprilBrother(body, receivedAt);
      expect(out.sightings).toEqual([]);
      expect(out.refused).toEqual([
        {
          item: null,
          reason: expect.stringMatching(/^not MessagePack the gateway sends: Max length exceeded/),
        },
      ]);
    }
    // The shared decoder is ready for the next gateway after a refusal.
    expect(decodeAprilBrother(message([DEVICE_1]), receivedAt).sightings).toHaveLength(1);
  });

  it('refuses truncated MessagePack, trailing bytes and messages without devices', () => {
    const whole = message([DEVICE_1]);
    const cases: [Uint8Array, RegExp][] = [
      [
        whole.subarray(0, whole.length - 10),
        /^not MessagePack the gateway sends: Insufficient data/,
      ],
      [Buffer.concat([whole, Buffer.from([0xc0])]), /^not MessagePack the gateway sends: Extra/],
      [encode({ v: '1.5.5', mac: 'C8FD19000001' }), /^message has no "devices" array$/],
      [encode([DEVICE_1]), /^message has no "devices" array$/],
      [encode({ mac: 'gateway-1', devices: [] }), /^gateway mac is not a MAC$/],
    ];
    for (const [body, reason] of cases) {
      expect(decodeAprilBrother(body, receivedAt).refused).toEqual([
        { item: null, reason: expect.stringMatching(reason) },
      ]);
    }
  });
});
