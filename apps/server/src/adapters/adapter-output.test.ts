import { describe, expect, it } from 'vitest';
import { decodeIngics } from './ingics.js';
import { toGatewayBatch } from './adapter-output.js';

const receivedAt = new Date('2026-11-26T03:00:00.000Z');
const registered = new Map([
  ['FE581D9DB308', 'BR-0001'],
  ['0C61CFC1452E', 'BR-0002'],
]);
const serialOf = (deviceId: string) => registered.get(deviceId);

describe('toGatewayBatch', () => {
  const output = decodeIngics(
    [
      // BR-0001 presses its button (the flag stays set for three advertisements, the battery drops);
      // BR-0002 is only heard, twice; one tag nobody registered.
      '$GPRP,FE581D9DB308,2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF,1795661998',
      '$GPRP,FE581D9DB308,2F9203AFA66B,-21,02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF,1795661999',
      '$GPRP,FE581D9DB308,2F9203AFA66B,-21,02010612FF590080BC2B0101FFFFFFFFFFFFFFFFFFFF',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-60,0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6,1795662000',
      '$GPRP,0C61CFC1452E,E7DAE08E6FC3,-61,0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6,1795662005',
      '$GPRP,CCB97E7361A4,CB412F0C8EDC,-49,1309696773206D65736820233220285445535429020106,1795662001',
      '$GPRP,CCB97E7361A4,CB412F0C8EDC,-70,1309696773206D65736820233220285445535429020106,1795661990',
    ].join('\n'),
    receivedAt,
  );

  it('gives a registered device one reading and one SOS per request, the merely heard a presence reading apart', () => {
    const { batch, presence } = toGatewayBatch(output, serialOf);
    // The button's signal stays with its SOS and its battery reading (the alert's place, issue 34).
    expect(batch.events).toEqual([
      { serialNumber: 'BR-0001', type: 'SOS', at: '2026-11-26T02:59:58.000Z', rssi: -21 },
    ]);
    expect(batch.readings).toEqual([
      { serialNumber: 'BR-0001', at: receivedAt.toISOString(), battery: 99, rssi: -21 },
    ]);
    // The latest time and the strongest signal of the request (the place fold's input).
    expect(presence).toEqual([
      { serialNumber: 'BR-0002', at: '2026-11-26T03:00:05.000Z', rssi: -60 },
    ]);
  });

  it('leaves out a signal the native reading cannot take (outside -130..20 dBm), rounds a fraction', () => {
    const heard = (rssi: number | null) => ({
      readings: [],
      events: [],
      stepTotals: [],
      refused: [],
      sightings: [
        {
          deviceId: '0C61CFC1452E',
          rssi,
          at: '2026-11-26T03:00:05.000Z',
          frame: 'generic' as const,
        },
      ],
    });
    expect(toGatewayBatch(heard(-140), serialOf).presence).toEqual([
      { serialNumber: 'BR-0002', at: '2026-11-26T03:00:05.000Z' },
    ]);
    expect(toGatewayBatch(heard(null), serialOf).presence[0]).not.toHaveProperty('rssi');
    expect(toGatewayBatch(heard(-61.6), serialOf).presence[0]).toMatchObject({ rssi: -62 });
  });

  it('lists unregistered devices once, with their latest signal and time, and stores nothing for them', () => {
    const { batch, unknownDevices } = toGatewayBatch(output, serialOf);
    expect(unknownDevices).toEqual([
      { deviceId: 'CCB97E7361A4', rssi: -49, at: '2026-11-26T03:00:01.000Z', frame: 'generic' },
    ]);
    expect(JSON.stringify(batch)).not.toContain('CCB97E7361A4');
  });
});
