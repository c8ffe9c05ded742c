// Every decoder answers damaged input with reasons, never with an exception (which the server would turn
// into a 500 and a lost request): the vendor vectors of the other test files, cut short and with bytes
// overwritten at random (a fixed seed, so a failure reproduces).
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import type { AdapterOutput } from './adapter-output.js';
import { decodeAprilBrother } from './aprilbrother.js';
import { decodeChirpstack } from './chirpstack.js';
import { decodeIngics } from './ingics.js';
import { decodeMinew } from './minew.js';
import { decodeThingsStack } from './things-stack.js';

const receivedAt = new Date('2026-11-26T03:00:00.000Z');
const IBEACON = '0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6';
const IBS01 = '02010612FF590080BC360101FFFFFFFFFFFFFFFFFFFF';
const BRACELET =
  '92' +
  ('C0A1B2C3D4E5' + '48' + '0400' + '55' + '78' + '50' + '0064' + 'AA' + '00').repeat(2) +
  '35';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The input cut at a random place, then a few bytes overwritten with random values. */
function damaged(input: Uint8Array, next: () => number): Uint8Array {
  const copy = Buffer.from(input.subarray(0, Math.floor(next() * (input.length + 1))));
  for (let i = Math.floor(next() * 4); i > 0 && copy.length > 0; i--) {
    copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
  }
  return copy;
}

const isOutput = (out: AdapterOutput) =>
  Array.isArray(out.readings) && Array.isArray(out.sightings) && Array.isArray(out.refused);

const minewBinary = Buffer.concat([
  Buffer.from('BB0100000000AC233FC02F870002', 'hex'),
  Buffer.from('C0A1B2C3D4E50001' + '1E' + IBEACON + '06C0', 'hex'),
  Buffer.from('C0A1B2C3D4E60002' + '16' + IBS01 + '06C0' + '00' + '04CF', 'hex'),
  Buffer.from('DD', 'hex'),
]);
minewBinary.writeUInt32BE(minewBinary.length, 2);
const text = (s: string) => Buffer.from(s);
const chirpstackUp = (data: string) =>
  JSON.stringify({
    time: '2026-11-26T03:00:00Z',
    deviceInfo: { devEui: '0101010101010101' },
    data,
  });
const ttsUplink = (frm: string) =>
  JSON.stringify({
    end_device_ids: { dev_eui: '0004A30B001C0530' },
    uplink_message: { frm_payload: frm },
  });

const CASES: [string, Uint8Array, (body: Uint8Array) => AdapterOutput][] = [
  [
    'Ingics',
    text(
      `$GPRP,FE581D9DB308,2F9203AFA66B,-21,${IBS01},1795662000\n$GPRP,0C61CFC1452E,E7DAE08E6FC3,-44,${IBEACON}`,
    ),
    (b) => decodeIngics(Buffer.from(b).toString('latin1'), receivedAt),
  ],
  ['Minew BINARY-LONG', minewBinary, (b) => decodeMinew(b, receivedAt)],
  [
    'Minew JSON-LONG',
    text(
      JSON.stringify([
        { type: 'Gateway', mac: 'AC233FC001EA' },
        { mac: 'AC233FA03208', rssi: -70, rawData: IBS01, timestamp: 1758600000000 },
      ]),
    ),
    (b) => decodeMinew(b, receivedAt),
  ],
  [
    'April Brother',
    encode({
      mac: 'C8FD19000001',
      devices: [
        Buffer.from('00123B6A1A64CFAA' + IBEACON, 'hex'),
        Buffer.from('02C8FD1949A530CE' + IBS01, 'hex'),
      ],
    }),
    (b) => decodeAprilBrother(b, receivedAt),
  ],
  [
    'ChirpStack',
    text(chirpstackUp(Buffer.from(BRACELET, 'hex').toString('base64'))),
    (b) => decodeChirpstack('up', parsed(b), receivedAt),
  ],
  [
    'Lansitec bracelets in a ChirpStack uplink',
    Buffer.from(BRACELET, 'hex'),
    (b) =>
      decodeChirpstack(
        'up',
        JSON.parse(chirpstackUp(Buffer.from(b).toString('base64'))),
        receivedAt,
      ),
  ],
  [
    'The Things Stack',
    text(ttsUplink(Buffer.from(BRACELET, 'hex').toString('base64'))),
    (b) => decodeThingsStack(parsed(b), receivedAt),
  ],
];

/** As the route would hand it over: JSON the HTTP layer could parse, or the raw text when it could not. */
function parsed(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return Buffer.from(body).toString('utf8');
  }
}

describe('damaged payloads', () => {
  it.each(CASES)(
    '%s: the vector decodes cleanly, and 2,000 damaged copies never throw',
    (_name, vector, decode) => {
      const clean = decode(vector);
      expect(clean.refused).toEqual([]);
      expect(clean.sightings.length).toBeGreaterThan(0);
      const next = random(18);
      const failures: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const body = damaged(vector, next);
        const hex = Buffer.from(body).toString('hex');
        try {
          if (!isOutput(decode(body))) failures.push(`no output for ${hex}`);
        } catch (error) {
          failures.push(`${String(error)} for ${hex}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
