// Vectors:
// - iBeacon: Ingics iGS01S user manual, "packet format" examples (manualshive.com/en/manual/ingics/igs01s,
//   page 3): 0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6 = UUID B9A5D27D..., major 0001,
//   minor 452E; April Brother AB BLE Gateway V4 user guide (wiki.aprbrother.com/en/User_Guide_For_AB_BLE_Gateway_V4.html):
//   0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0.
// - Eddystone UID: the frame in reelyActive barnowl-minew test/unit/binarypacketdecoder.test.js
//   (github.com/reelyactive/barnowl-minew); URL and TLM laid out byte for byte from the Eddystone protocol
//   specification (github.com/google/eddystone, eddystone-url / eddystone-tlm).
// - Ingics iBS01: ingics/ingics-message-parser __test__/ibs01.test.js (button pressed, 3.10 V; moving and fall).
import { describe, expect, it } from 'vitest';
import { emptyOutput } from './adapter-output.js';
import { readAdvertisement, recordAdvertisement } from './advertisement.js';

const ad = (hex: string) => Buffer.from(hex, 'hex');

describe('readAdvertisement', () => {
  it.each([
    [
      '0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6',
      { frame: 'ibeacon', beaconId: 'B9A5D27D56CC4E3AAB511F2153BCB967/1/17710' },
    ],
    [
      '0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0',
      { frame: 'ibeacon', beaconId: 'EB6D469624BE4663B15230D46B0E9CC9/13/42' },
    ],
    [
      '0201060303AAFE1516AAFE00E80011223344556677889900000000000000',
      { frame: 'eddystone-uid', beaconId: '00112233445566778899/000000000000' },
    ],
    ['0303AAFE0D16AAFE10EE03676F6F676C6507', { frame: 'eddystone-url' }],
    // TLM: version 0, 3000 mV, 25.0 C, 16 advertisements, 32 tenths of a second.
    [
      '0303AAFE' + '1116AAFE20' + '00' + '0BB8' + '1900' + '00000010' + '00000020',
      { frame: 'eddystone-tlm' },
    ],
  ])('recognises %s', (hex, meaning) => {
    expect(readAdvertisement(ad(hex))).toEqual(meaning);
  });

  it('reads the iBS01 button press, its battery and its fall flag', () => {
    expect(readAdvertisement(ad('02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF'))).toEqual({
      frame: 'ingics-ibs01',
      battery: 100,
      button: true,
      fall: false,
    });
    expect(readAdvertisement(ad('02010612FF590080BC2B0104FFFFFFFFFFFFFFFFFFFF'))).toMatchObject({
      battery: 99,
      button: false,
    });
    expect(readAdvertisement(ad('02010612FF590080BC2B010AFFFFFFFFFFFFFFFFFFFF'))).toMatchObject({
      button: false,
      fall: true,
    });
  });

  it('takes any other advertiser as a generic tag, presence only', () => {
    // iGS01S manual: a device name and flags; a Nordic (0x0059) frame that is not an iBS01.
    expect(readAdvertisement(ad('1309696773206D65736820233220285445535429020106'))).toEqual({
      frame: 'generic',
    });
    expect(
      readAdvertisement(ad('0201041AFF590002150112233445566778899AABBCCDDEEFF0000100C3BB')),
    ).toEqual({ frame: 'generic' });
    expect(readAdvertisement(new Uint8Array())).toEqual({ frame: 'generic' });
  });

  it('refuses structures that overrun the bytes and frames too short for their kind', () => {
    expect(readAdvertisement(ad('0201061AFF4C0002'))).toBe(
      'AD structure at byte 3 declares 26 bytes, only 4 left',
    );
    expect(readAdvertisement(ad('0816AAFE00E8001122'))).toBe(
      'Eddystone UID frame is 5 bytes, expected at least 18',
    );
    expect(readAdvertisement(ad('05FF590080BC'))).toBe(
      'Ingics iBS01 data is 4 bytes, expected at least 7',
    );
  });
});

describe('recordAdvertisement', () => {
  it('turns an iBS01 press into a sighting, a battery reading and an SOS', () => {
    const out = emptyOutput();
    const heard = { deviceId: 'FE581D9DB308', rssi: -21, at: '2026-11-26T00:00:00.000Z' };
    recordAdvertisement(out, 0, heard, ad('02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF'));
    expect(out).toEqual({
      stepTotals: [],
      sightings: [{ ...heard, frame: 'ingics-ibs01' }],
      readings: [{ serialNumber: 'FE581D9DB308', at: heard.at, battery: 100 }],
      events: [{ serialNumber: 'FE581D9DB308', type: 'SOS', at: heard.at }],
      refused: [],
    });
  });
});
