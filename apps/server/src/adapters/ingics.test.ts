// Vectors: Ingics iGS01S user manual, packet format (manualshive.com/en/manual/ingics/igs01s, page 3) and
// iGS03M user manual, "Payload Format" (manualshive.com/ru/manual/ingics/igs03m/2060761?page=6);
// $HBRP and iBS01 lines from github.com/ingics/ingics-message-parser __test__/igs03.test.js and ibs01.test.js.
import { describe, expect, it } from 'vitest';
import { decodeIngics } from './ingics.js';

const receivedAt = new Date('2026-11-26T01:02:03.000Z');

describe('decodeIngics', () => {
  it('decodes the manual’s report lines, with and without the NTP timestamp', () => {
    const body = [
      '$GPRP,CCB97E7361A4,CB412F0C8EDC,-49,1309696773206D65736820233220285445535429020106,1574921085',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6',
      '',
    ].join('\r\n');
    const out = decodeIngics(body, receivedAt);
    expect(out.refused).toEqual([]);
    expect(out.sightings).toEqual([
      { deviceId: 'CCB97E7361A4', rssi: -49, at: '2019-11-28T06:04:45.000Z', frame: 'generic' },
      {
        deviceId: '0C61CFC1452E',
        rssi: -44,
        at: receivedAt.toISOString(),
        frame: 'ibeacon',
        beaconId: 'B9A5D27D56CC4E3AAB511F2153BCB967/1/17710',
      },
    ]);
  });

  it('turns the iBS01 button into an SOS with the tag’s battery', () => {
    const out = decodeIngics(
      '$GPRP,FE581D9DB308,2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF',
      receivedAt,
    );
    expect(out.events).toEqual([
      { serialNumber: 'FE581D9DB308', type: 'SOS', at: receivedAt.toISOString() },
    ]);
    expect(out.readings).toEqual([
      { serialNumber: 'FE581D9DB308', at: receivedAt.toISOString(), battery: 100 },
    ]);
  });

  it('accepts heartbeats without yielding anything, and reads JSON mode', () => {
    const heartbeat = decodeIngics(
      '$HBRP,F008D1798C60,F008D1798C60,-127,00000000,1635322857',
      receivedAt,
    );
    expect(heartbeat).toEqual({
      readings: [],
      events: [],
      sightings: [],
      stepTotals: [],
      refused: [],
    });
    const json = decodeIngics(
      JSON.stringify({
        data: [
          '$GPRP,F704B6D48BE8,1173AE7325A2,-24,02010612FF590080BC2B0104FFFFFFFFFFFFFFFFFFFF',
          7,
        ],
      }),
      receivedAt,
    );
    expect(json.sightings.map((s) => s.deviceId)).toEqual(['F704B6D48BE8']);
    expect(json.refused).toEqual([{ item: 1, reason: 'report is not a string' }]);
  });

  it('refuses each bad line with its reason and still decodes the good ones', () => {
    const good =
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6';
    const body = [
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,0201061AFF4C00021ZZ9A5',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,0201061',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,0201061AFF4C0002',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44',
      '$GPRP,NOTAMAC,E7DAE08E6FC3,-44,020106',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,strong,020106',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,020106,yesterday',
      '$XXXX,0C61CFC1452E,E7DAE08E6FC3,-44,020106',
      'GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,020106',
      good,
    ].join('\n');
    const out = decodeIngics(body, receivedAt);
    expect(out.refused).toEqual([
      { item: 0, reason: 'raw packet content is not hex (an even number of 0-9A-F digits)' },
      { item: 1, reason: 'raw packet content is not hex (an even number of 0-9A-F digits)' },
      { item: 2, reason: 'AD structure at byte 3 declares 26 bytes, only 4 left' },
      { item: 3, reason: '$GPRP has 4 fields, expected 5 or 6' },
      { item: 4, reason: 'tag id is not a MAC' },
      { item: 5, reason: 'rssi strong is not a number in -127..20' },
      { item: 6, reason: 'timestamp yesterday is not a Unix time' },
      { item: 7, reason: 'unknown report type $XXXX' },
      { item: 8, reason: 'line does not start with $' },
    ]);
    expect(out.sightings).toHaveLength(1);
  });

  it('refuses a body that is not reports at all', () => {
    expect(decodeIngics('{"hello":', receivedAt).refused).toEqual([
      { item: null, reason: 'body starts with { but is not JSON' },
    ]);
    expect(decodeIngics('{"tags":[]}', receivedAt).refused).toEqual([
      { item: null, reason: 'JSON body has no "data" array of report lines' },
    ]);
  });
});
