// adapters: each gateway-format decoder (apps/server/src/adapters) run in-process on one core over a
// realistic request, timed for about a second after a warm-up. Reports advertisements (device records)
// decoded per second and what an April Brother AB BLE Gateway V4 at its documented 210 advertisements/s
// costs. Usage: npm run bench -- adapters [--seconds 1]. Target: >= 50,000 advertisements/s per decoder.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { encode } from '@msgpack/msgpack';
import { ROOT, printMachine, requireBuild } from '../foundation/_lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '1' } } });
const ADAPTERS = join(ROOT, 'apps/server/dist/adapters');
requireBuild(join(ADAPTERS, 'minew.js'), 'the server');
const load = (file) => import(pathToFileURL(join(ADAPTERS, file)).href);
const { decodeIngics } = await load('ingics.js');
const { decodeMinew } = await load('minew.js');
const { decodeAprilBrother } = await load('aprilbrother.js');
const { decodeChirpstack } = await load('chirpstack.js');
const { decodeThingsStack } = await load('things-stack.js');

// The advertisements each request carries: an iBeacon, an iBS01 button tag and a generic tag in turn.
const ADS = [
  '0201061AFF4C000215B9A5D27D56CC4E3AAB511F2153BCB9670001452ED6',
  '02010612FF590080BC360100FFFFFFFFFFFFFFFF0300',
  '1309696773206D65736820233220285445535429020106',
];
const PER_REQUEST = 210;
const mac = (i) => (0xc0a1b2000000 + i).toString(16).toUpperCase().padStart(12, '0');
const ad = (i) => ADS[i % ADS.length];
const receivedAt = new Date();

function minewBinary() {
  const tags = Array.from({ length: PER_REQUEST }, (_, i) => {
    const data = Buffer.from(ad(i), 'hex');
    return Buffer.concat([
      Buffer.from(mac(i), 'hex'),
      Buffer.from([0, 1, data.length]),
      data,
      Buffer.from([0x06, 0xc0]),
    ]);
  });
  const body = Buffer.concat([Buffer.from('AC233FC02F87', 'hex'), Buffer.alloc(2), ...tags]);
  body.writeUInt16BE(PER_REQUEST, 6);
  const frame = Buffer.concat([Buffer.from([0xbb, 0x01, 0, 0, 0, 0]), body, Buffer.from([0xdd])]);
  frame.writeUInt32BE(frame.length, 2);
  return frame;
}

const minewFrame = minewBinary();
const minewJson = Buffer.from(
  JSON.stringify([
    { timestamp: '2026-11-26T03:00:00Z', type: 'Gateway', mac: 'AC233FC001EA' },
    ...Array.from({ length: PER_REQUEST }, (_, i) => ({
      timestamp: '2026-11-26T03:00:00Z',
      type: 'Unknown',
      mac: mac(i),
      rssi: -60,
      rawData: ad(i),
    })),
  ]),
);
const ingicsLines = Array.from(
  { length: PER_REQUEST },
  (_, i) => `$GPRP,${mac(i)},CB412F0C8EDC,-60,${ad(i)},1795662000`,
).join('\r\n');
const aprilBrother = encode({
  v: '1.5.5',
  mid: 1,
  time: 100,
  ip: '192.168.1.20',
  mac: 'C8FD19000001',
  devices: Array.from({ length: PER_REQUEST }, (_, i) =>
    Buffer.concat([
      Buffer.from([0]),
      Buffer.from(mac(i), 'hex'),
      Buffer.from([0xc0]),
      Buffer.from(ad(i), 'hex'),
    ]),
  ),
});
// A Lansitec bracelet message with six bracelets, the most one uplink carries.
const record = (i) => mac(i) + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '00';
const lansitec = Buffer.from(
  '96' + [0, 1, 2, 3, 4, 5].map(record).join('') + '000000',
  'hex',
).toString('base64');
const chirpstackUp = JSON.stringify({
  time: '2026-11-26T03:00:00Z',
  deviceInfo: { devEui: '0101010101010101' },
  fPort: 1,
  data: lansitec,
  rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -36, snr: 10.5 }],
});
const ttsUplink = JSON.stringify({
  end_device_ids: { device_id: 'dev1', dev_eui: '0004A30B001C0530' },
  received_at: '2026-11-26T03:00:00Z',
  uplink_message: {
    f_port: 1,
    frm_payload: lansitec,
    rx_metadata: [{ rssi: -35 }],
    received_at: '2026-11-26T03:00:00Z',
  },
});

// Each case decodes the body as it arrives (bytes or text), JSON parsing included where the format is JSON.
const CASES = [
  ['Ingics $GPRP lines', () => decodeIngics(ingicsLines, receivedAt)],
  ['Minew BINARY-LONG', () => decodeMinew(minewFrame, receivedAt)],
  ['Minew JSON-LONG', () => decodeMinew(minewJson, receivedAt)],
  ['April Brother V4 MessagePack', () => decodeAprilBrother(aprilBrother, receivedAt)],
  [
    'ChirpStack up + Lansitec (6 bracelets)',
    () => decodeChirpstack('up', JSON.parse(chirpstackUp), receivedAt),
  ],
  [
    'The Things Stack uplink + Lansitec (6 bracelets)',
    () => decodeThingsStack(JSON.parse(ttsUplink), receivedAt),
  ],
];

function measure(run, seconds) {
  const first = run();
  if (first.refused.length > 0) throw new Error(`refused: ${JSON.stringify(first.refused[0])}`);
  const perCall = first.sightings.length;
  for (let i = 0; i < 200; i++) run();
  let calls = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (let i = 0; i < 20; i++) run();
    calls += 20;
  }
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return {
    perCall,
    perSecond: Math.round((calls * perCall) / cpuSeconds),
    callMs: (cpuSeconds * 1000) / calls,
  };
}

printMachine();
const seconds = Number(values.seconds);
console.log(
  `decoder                                          ads/request   ads/s (CPU)   ms/request`,
);
for (const [name, run] of CASES) {
  const { perCall, perSecond, callMs } = measure(run, seconds);
  console.log(
    `${name.padEnd(48)} ${String(perCall).padStart(11)} ${perSecond.toLocaleString('en').padStart(13)} ${callMs.toFixed(3).padStart(12)}`,
  );
  if (name.startsWith('April Brother')) {
    console.log(
      `  AB V4 at 210 ads/s: decoding costs ${((callMs / 1000) * 100).toFixed(2)}% of one core`,
    );
  }
}
