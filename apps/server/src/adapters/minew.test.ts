// Vectors:
// - BINARY-LONG: the G1 sample of reelyActive barnowl-minew, test/unit/binarypacketdecoder.test.js
//   (github.com/reelyactive/barnowl-minew @272df34e), with the tags, RSSIs and packets that test expects.
// - JSON-LONG: the record shapes barnowl-minew lib/jsonlongpacketdecoder.js reads (gateway record
//   {"type":"Gateway","mac"}, then mac / rssi / rawData / timestamp); the G1 records below are a G1 upload
//   (2019-08-01) quoted in public code, MG3's epoch-millisecond timestamps as MG3 firmware sends them; the
//   G1's own iBeacon record (ibeaconUuid / ibeaconMajor / ibeaconMinor / ibeaconTxPower / battery) with our values.
// - JSON-RAW: the shape of barnowl-minew lib/jsonrawpacketdecoder.js ({"gateway","locator"}, then mac /
//   no / rssi / timestamp).
import { describe, expect, it } from 'vitest';
import { emptyOutput } from './adapter-output.js';
import { decodeMinew, decodeMinewBinary, decodeMinewJson } from './minew.js';
import { MINEW_G1_BINARY_LONG } from './minew-vectors.js';

const receivedAt = new Date('2026-11-26T01:02:03.000Z');
const BINARY_LONG = MINEW_G1_BINARY_LONG;
// barnowl-minew's expected raddecs: transmitter, RSSI (the raddec's mean, rounded), number of decodings.
const EXPECTED_TAGS: [string, number, number][] = [
  ['032E4A1AA95A', -49, 1],
  ['068B332CECE2', -46, 2],
  ['201811167712', -39, 2],
  ['202005290913', -49, 1],
  ['2FCDA8E1A7A6', -47, 3],
  ['393F7BA3A036', -45, 3],
  ['50ECECE1AEF0', -49, 2],
  ['67C7750A58FC', -46, 4],
  ['6D24188177A4', -48, 2],
  ['ACAC22330004', -49, 2],
  ['C2005900038E', -44, 1],
  ['DC234D08C8EA', -49, 5],
];

describe('decodeMinewBinary', () => {
  it('decodes the BINARY-LONG sample: every tag, RSSI and advertisement', () => {
    const out = decodeMinewBinary(BINARY_LONG, receivedAt);
    expect(out.refused).toEqual([]);
    const tags = EXPECTED_TAGS.map(([deviceId]) => {
      const heard = out.sightings.filter((s) => s.deviceId === deviceId);
      const mean = heard.reduce((sum, s) => sum + (s.rssi ?? 0), 0) / heard.length;
      return [deviceId, Math.round(mean), heard.length];
    });
    expect(tags).toEqual(EXPECTED_TAGS);
    expect(out.sightings.find((s) => s.deviceId === 'C2005900038E')).toMatchObject({
      frame: 'ibeacon',
      beaconId: 'FDA50693A4E24FB1AFCFC6EB07647825/10001/19641',
    });
    expect(out.sightings.find((s) => s.deviceId === '202005290913')).toMatchObject({
      frame: 'eddystone-uid',
    });
  });

  it('refuses a truncated frame whole: no tag of it is kept (issue 34)', () => {
    const cut = BINARY_LONG.subarray(0, 200);
    const out = decodeMinewBinary(cut, receivedAt);
    expect(out).toEqual({
      ...emptyOutput(),
      refused: [{ item: null, reason: 'frame declares 881 bytes, 200 arrived: refused whole' }],
    });
  });

  it('refuses wrong length fields, a missing tail and other binary formats', () => {
    const longer = Buffer.from(BINARY_LONG);
    longer.writeUInt32BE(0x0400, 2);
    expect(decodeMinewBinary(longer, receivedAt)).toEqual({
      ...emptyOutput(),
      refused: [{ item: null, reason: 'frame declares 1024 bytes, 881 arrived: refused whole' }],
    });
    const tail = Buffer.from(BINARY_LONG);
    tail[tail.length - 1] = 0x00;
    expect(decodeMinewBinary(tail, receivedAt)).toEqual({
      ...emptyOutput(),
      refused: [{ item: null, reason: 'frame does not end with DD: refused whole' }],
    });
    const moreTags = Buffer.from(BINARY_LONG);
    moreTags.writeUInt16BE(13, 12);
    expect(decodeMinewBinary(moreTags, receivedAt)).toEqual({
      ...emptyOutput(),
      refused: [
        { item: null, reason: 'frame declares 13 tags, tag 12 runs past its end: refused whole' },
      ],
    });
    expect(
      decodeMinewBinary(Buffer.from('BB00000000', 'hex'), receivedAt).refused[0]?.reason,
    ).toMatch(/only BINARY-LONG/);
    expect(decodeMinewBinary(Buffer.from('BB01000F', 'hex'), receivedAt).refused).toEqual([
      { item: null, reason: 'not a BINARY-LONG frame (4 bytes, header BB01)' },
    ]);
  });
});

describe('decodeMinewJson', () => {
  const gatewayRecord = {
    timestamp: '2019-08-01T05:54:25Z',
    type: 'Gateway',
    mac: 'AC233FC001EA',
    gatewayFree: 98,
    gatewayLoad: 0.05,
  };

  it('decodes JSON-LONG records: raw advertisements, parsed-only records, MG3 epoch milliseconds', () => {
    const out = decodeMinewJson(
      [
        gatewayRecord,
        {
          timestamp: '2019-08-01T05:54:25Z',
          type: 'Unknown',
          mac: 'AC233FA03208',
          bleName: '',
          rssi: -79,
          rawData: '0201060303E1FF0D16E1FFA10264000832A03F23AC',
        },
        {
          timestamp: '2019-08-01T05:54:25Z',
          type: 'S1',
          mac: 'AC233FA018E3',
          bleName: 'S1',
          rssi: -54,
          battery: 100,
          temperature: 26.69,
          humidity: 65.14,
        },
        { mac: 'AABBCCDDEEFF', rawData: '', rssi: -62, timestamp: 1758600000000 },
        {
          timestamp: '2019-08-01T05:54:26Z',
          type: 'iBeacon',
          mac: 'AC233F2A1B3C',
          bleName: '',
          ibeaconUuid: 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0',
          ibeaconMajor: 3838,
          ibeaconMinor: 4949,
          rssi: -58,
          ibeaconTxPower: -59,
          battery: 100,
        },
      ],
      receivedAt,
    );
    expect(out.refused).toEqual([]);
    expect(out.sightings).toEqual([
      { deviceId: 'AC233FA03208', rssi: -79, at: '2019-08-01T05:54:25.000Z', frame: 'generic' },
      { deviceId: 'AC233FA018E3', rssi: -54, at: '2019-08-01T05:54:25.000Z', frame: 'generic' },
      { deviceId: 'AABBCCDDEEFF', rssi: -62, at: '2025-09-23T04:00:00.000Z', frame: 'generic' },
      {
        deviceId: 'AC233F2A1B3C',
        rssi: -58,
        at: '2019-08-01T05:54:26.000Z',
        frame: 'ibeacon',
        beaconId: 'E2C56DB5DFFB48D2B060D0F5A71096E0/3838/4949',
      },
    ]);
  });

  it('decodes JSON-RAW presence records', () => {
    const out = decodeMinewJson(
      [
        { gateway: 'AC233FC0A1B2', locator: 'AC233FC0A1B2' },
        { mac: 'AC233FA018E7', no: 37, rssi: -55, timestamp: '2023-05-01T10:00:00Z' },
      ],
      receivedAt,
    );
    expect(out.sightings).toEqual([
      { deviceId: 'AC233FA018E7', rssi: -55, at: '2023-05-01T10:00:00.000Z', frame: 'generic' },
    ]);
  });

  it('refuses records with missing or bad fields and keeps the good ones', () => {
    const good = { mac: 'AC233FA03208', rssi: -70, rawData: '020106' };
    const out = decodeMinewJson(
      [
        gatewayRecord,
        { rssi: -70, rawData: '020106' },
        { mac: 'AC233FA03208', rawData: '020106' },
        { mac: 'AC233FA03208', rssi: -70, rawData: '02010G' },
        { mac: 'AC233FA03208', rssi: -70, rawData: '0201061AFF4C00' },
        { mac: 'AC233FA03208', rssi: -70, timestamp: 'soon' },
        { mac: 'AC233FA03208', rssi: -70, type: 'iBeacon', ibeaconMajor: 1 },
        'AC233FA03208',
        good,
      ],
      receivedAt,
    );
    expect(out.refused).toEqual([
      { item: 1, reason: 'mac is missing or not a MAC' },
      { item: 2, reason: 'rssi is missing or not a number in -127..20' },
      { item: 3, reason: 'rawData is not hex (an even number of 0-9A-F digits)' },
      { item: 4, reason: 'AD structure at byte 3 declares 26 bytes, only 3 left' },
      { item: 5, reason: 'timestamp soon is not a time' },
      { item: 6, reason: 'iBeacon record needs ibeaconUuid, ibeaconMajor and ibeaconMinor' },
      { item: 7, reason: 'is not an object' },
    ]);
    expect(out.sightings).toHaveLength(1);
  });

  it('refuses a body that is not a Minew JSON format', () => {
    for (const body of [{}, [], [{ mac: 'AC233FA03208', rssi: -1 }]]) {
      expect(decodeMinewJson(body, receivedAt).refused[0]?.reason).toMatch(/not Minew JSON-LONG/);
    }
  });

  it('tells binary from JSON by the first byte', () => {
    expect(decodeMinew(BINARY_LONG, receivedAt).sightings).toHaveLength(28);
    const json = Buffer.from(JSON.stringify([gatewayRecord, { mac: 'AC233FA03208', rssi: -1 }]));
    expect(decodeMinew(json, receivedAt).sightings).toHaveLength(1);
    expect(decodeMinew(Buffer.from('garbage'), receivedAt).refused).toEqual([
      { item: null, reason: 'body is neither BINARY-LONG nor JSON' },
    ]);
  });
});
