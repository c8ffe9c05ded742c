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
import { decodeMinew, decodeMinewBinary, decodeMinewJson } from './minew.js';

const receivedAt = new Date('2026-11-26T01:02:03.000Z');
const BINARY_LONG = Buffer.from(
  'BB0100000371AC233FC02F87000C032E4A1AA95A00011F1EFF060001' +
    '09200235EEAEEBD2CFD9330452E2AC9FE743D46EFC3EACBEAE2A06CF' +
    '068B332CECE200021F1EFF06000109200253439AFB696A05586197E9' +
    'F66EE6CB86DBBA155695877C06D21F1EFF06000109200253439AFB69' +
    '6A05586197E9F66EE6CB86DBBA155695877C06D12018111677120002' +
    '1E0201061AFF4C0002154C2B0000000100010001012B010002C90001' +
    '0001C500D91B020A000303F1FF0E16F1FF6400010001201811167712' +
    '04094C2B4201D920200529091300011D0201060303AAFE1516AAFE00' +
    'E80011223344556677889900000000000000CF2FCDA8E1A7A600031F' +
    '1EFF0600010920020BBCB084E1CE7776FADBE60253E3E9657D33DC5A' +
    '05C62506D21F1EFF0600010920020BBCB084E1CE7776FADBE60253E3' +
    'E9657D33DC5A05C62506D01F1EFF0600010920020BBCB084E1CE7776' +
    'FADBE60253E3E9657D33DC5A05C62506D2393F7BA3A03600031F1EFF' +
    '06000109200200F8DA4B31DDF0B8959217A0E4459D2C9773F26E6199' +
    '9006D31F1EFF06000109200200F8DA4B31DDF0B8959217A0E4459D2C' +
    '9773F26E61999006D41F1EFF06000109200200F8DA4B31DDF0B89592' +
    '17A0E4459D2C9773F26E61999006D250ECECE1AEF000020005CF1102' +
    '011A020A0C0AFF4C001005031CF7B75E04CF67C7750A58FC00041202' +
    '011A020A080BFF4C001006311A4851464904D00005D51202011A020A' +
    '080BFF4C001006311A4851464904D20005D06D24188177A400021102' +
    '011A020A0C0AFF4C0010054B1CDB112704D11102011A020A0C0AFF4C' +
    '0010054B1CDB112704CFACAC2233000400021F0201061BFF3906CA00' +
    '04003322ACAC5F6000000000000001000000CBC6B86600CF1D020106' +
    '19FF3906CA011700000000B4B63000C500000000000130632BC000CF' +
    'C2005900038E00011E0201061AFF4C000215FDA50693A4E24FB1AFCF' +
    'C6EB0764782527114CB9C502D4DC234D08C8EA00051C020106030201' +
    'A20C1601A200616D6673716F7873000000000000000000CF1E030954' +
    '5919FFD007000300000100A06C720DA47914B1A9D5900447373C5501' +
    'CF1C020106030201A20C1601A200616D6673716F7873000000000000' +
    '000000CF1E0309545919FFD007000300000100A06C720DA47914B1A9' +
    'D5900447373C5501CF1C020106030201A20C1601A200616D6673716F' +
    '7873000000000000000000CFDD',
  'hex',
);
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

  it('keeps the complete tags of a truncated frame and refuses the rest', () => {
    const cut = BINARY_LONG.subarray(0, 200);
    const out = decodeMinewBinary(cut, receivedAt);
    expect(out.refused).toEqual([
      { item: null, reason: 'frame declares 881 bytes, 200 arrived' },
      { item: 2, reason: 'tag 2: advertisement 1 of 2 is truncated' },
    ]);
    expect(out.sightings.map((s) => s.deviceId)).toEqual([
      '032E4A1AA95A',
      '068B332CECE2',
      '068B332CECE2',
      '201811167712',
    ]);
  });

  it('refuses wrong length fields, a missing tail and other binary formats', () => {
    const longer = Buffer.from(BINARY_LONG);
    longer.writeUInt32BE(0x0400, 2);
    expect(decodeMinewBinary(longer, receivedAt).refused[0]).toEqual({
      item: null,
      reason: 'frame declares 1024 bytes, 881 arrived',
    });
    const tail = Buffer.from(BINARY_LONG);
    tail[tail.length - 1] = 0x00;
    expect(decodeMinewBinary(tail, receivedAt).refused).toEqual([
      { item: null, reason: 'frame does not end with DD' },
    ]);
    const moreTags = Buffer.from(BINARY_LONG);
    moreTags.writeUInt16BE(13, 12);
    expect(decodeMinewBinary(moreTags, receivedAt).refused).toEqual([
      { item: 12, reason: 'tag 12 of 13 is truncated' },
    ]);
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
