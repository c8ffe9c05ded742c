// Vectors: laid out byte for byte from Lansitec "Smart LoRaWAN Bluetooth Gateway", document 990-01201
// rev. 1.73 (11/2021), 4.4.4 Bracelet (manuals.online/lansitec/gateway/100-13248/user-manual, pages 10-11:
// TYPE 0x9 | count, MAC, HB, STEPS, BAT, SYSP, DIAP, CALO, RSSI "value - 256", SOS, then TOFF nibbles);
// the manual prints the layout but no sample message, so the bytes below are ours.
import { describe, expect, it } from 'vitest';
import { emptyOutput, stepsSince } from './adapter-output.js';
import { decodeLansitecUplink } from './lansitec.js';

const at = '2026-11-26T03:00:10.000Z';
const BRACELET_A = 'C0A1B2C3D4E5' + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '00';
const BRACELET_B = 'C0A1B2C3D4E6' + '00' + '0010' + 'FF' + '00' + '00' + '0000' + 'C4' + '01';
const decode = (hex: string) => {
  const out = emptyOutput();
  decodeLansitecUplink(out, { devEui: '70B3D5E75E000001', at, bytes: Buffer.from(hex, 'hex') });
  return out;
};

describe('decodeLansitecUplink', () => {
  it('reads each bracelet: heart rate, battery, steps today, signal, SOS, time offset', () => {
    const out = decode('92' + BRACELET_A + BRACELET_B + '35');
    expect(out.refused).toEqual([]);
    expect(out.readings).toEqual([
      { serialNumber: 'C0A1B2C3D4E5', at: '2026-11-26T03:00:07.000Z', heartRate: 72, battery: 85 },
      // heart rate 0 = not measured, battery 255 = not reported
      { serialNumber: 'C0A1B2C3D4E6', at: '2026-11-26T03:00:05.000Z' },
    ]);
    expect(out.stepTotals).toEqual([
      { deviceId: 'C0A1B2C3D4E5', at: '2026-11-26T03:00:07.000Z', stepsToday: 1234 },
      { deviceId: 'C0A1B2C3D4E6', at: '2026-11-26T03:00:05.000Z', stepsToday: 16 },
    ]);
    expect(out.sightings.map((s) => [s.deviceId, s.rssi, s.frame])).toEqual([
      ['C0A1B2C3D4E5', -86, 'lansitec-bracelet'],
      ['C0A1B2C3D4E6', -60, 'lansitec-bracelet'],
    ]);
    expect(out.events).toEqual([
      { serialNumber: 'C0A1B2C3D4E6', type: 'SOS', at: '2026-11-26T03:00:05.000Z' },
    ]);
  });

  it('turns daily totals into the native steps since the previous reading', () => {
    expect(stepsSince(undefined, 1234)).toBe(1234);
    expect(stepsSince(1000, 1234)).toBe(234);
    expect(stepsSince(9000, 12)).toBe(12);
  });

  it('refuses a short message whole: no record of it is kept (issue 34)', () => {
    const out = decode('93' + BRACELET_A + BRACELET_B.slice(0, 10));
    expect(out).toEqual({
      ...emptyOutput(),
      refused: [
        {
          item: null,
          reason: 'bracelet message declares 3 bracelets (51 bytes), 22 arrived: refused whole',
        },
      ],
    });
  });

  it('refuses a message declaring 1 bracelet but carrying 2 whole, naming the SOS it seems to carry (issue 34)', () => {
    // Before: bracelet A was stored 12 s early (its time offset read from B's first MAC byte, C0) and
    // bracelet B (SOS = 1) was dropped silently.
    const out = decode('91' + BRACELET_A + BRACELET_B + '35');
    expect(out.readings).toEqual([]);
    expect(out.sightings).toEqual([]);
    expect(out.events).toEqual([]);
    expect(out.stepTotals).toEqual([]);
    expect(out.refused).toEqual([
      {
        item: null,
        reason:
          'bracelet message declares 1 bracelet (18 bytes), 34 arrived: refused whole; it seems to carry an SOS of C0A1B2C3D4E6, not opened: set the gateway to the 1.7x bracelet message',
        sos: ['C0A1B2C3D4E6'],
      },
    ]);
  });

  it('refuses an impossible count and ignores Lansitec messages that are not about bracelets', () => {
    expect(decode('90').refused).toEqual([
      { item: null, reason: 'bracelet message declares 0 bracelets, 1..6 allowed: refused whole' },
    ]);
    expect(decode('97' + BRACELET_A).refused[0]?.reason).toBe(
      'bracelet message declares 7 bracelets, 1..6 allowed: refused whole',
    );
    // 0x2 heartbeat and 0x8 beacon messages, and an empty payload.
    for (const hex of ['2064C8000A0001', '81000100022A', '']) {
      expect(decode(hex)).toEqual(emptyOutput());
    }
  });
});
