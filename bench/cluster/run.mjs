// cluster: two servers (A and B) on one fresh PostgreSQL database; gateways send SOS events to server A while a
// console is connected to server B's /v3/live; measures the time from the gateway's send (to A) to the `alert`
// `opened` event on B's stream (p50/p95/p99), over the PostgreSQL LISTEN/NOTIFY bus or NATS.
// Usage: npm run bench -- cluster [--bus postgres|nats] [--sos 200] [--sos-every-ms 100] [--rate 0]
//        [--pg postgres://postgres@127.0.0.1:5432/postgres] [--nats nats://127.0.0.1:4222]
// --rate N also ingests N readings/s through A (and B, half each) meanwhile. Target: p99 <= 200 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  freePort,
  printMachine,
  requireBuild,
  SERVER_MAIN,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import {
  gatewayCredential,
  openFreshDb,
  percentiles,
  seedOrganization,
  signIn,
} from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    bus: { type: 'string', default: 'postgres' },
    sos: { type: 'string', default: '200' },
    'sos-every-ms': { type: 'string', default: '100' },
    rate: { type: 'string', default: '0' },
    wearers: { type: 'string', default: '1000' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    nats: { type: 'string', default: 'nats://127.0.0.1:4222' },
  },
});
const TARGET_P99 = 200;
if (values.bus !== 'postgres' && values.bus !== 'nats')
  throw new Error('--bus must be postgres or nats');
requireBuild(SERVER_MAIN, 'the server');
const SOS = Number(values.sos);
const READERS = Number(values.wearers);
const RATE = Number(values.rate);
const total = READERS + SOS;

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-cluster-'));
const fresh = await openFreshDb({ pgUrl: values.pg, dataDir: join(folder, 'db') });
const { gateways } = await seedOrganization(fresh.db, { wearers: total, withLatest: false });
await fresh.db.close();

const extra = {
  SEED_DEMO: 'false',
  DATABASE_URL: fresh.databaseUrl,
  ...(values.bus === 'nats' ? { NATS_URL: values.nats } : {}),
};
const [portA, portB] = [await freePort(), await freePort()];
const a = startServer(serverEnv(portA, join(folder, 'a'), extra));
const b = startServer(serverEnv(portB, join(folder, 'b'), extra));
const baseA = `http://127.0.0.1:${portA}`;
const baseB = `http://127.0.0.1:${portB}`;
const gw = (i) => ({
  authorization: `Gateway bgw-${i}:${gatewayCredential(i)}`,
  'content-type': 'application/json',
});
const gatewayOf = (wearer) => 1 + Math.floor((wearer - 1) / 100);

try {
  await Promise.all([waitForReady(baseA, a), waitForReady(baseB, b)]);
  const token = await signIn(baseB);
  const ticket = await fetch(`${baseB}/v3/live/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!ticket.ok) throw new Error(`live ticket failed: ${ticket.status}`);
  const arrived = new Map();
  const abort = new AbortController();
  const live = await fetch(`${baseB}/v3/live?ticket=${(await ticket.json()).ticket}`, {
    signal: abort.signal,
  });
  if (!live.ok || !live.body) throw new Error(`live failed: ${live.status}`);
  void (async () => {
    const reader = live.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const now = performance.now();
      buf += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (!frame.startsWith('event: alert')) continue;
        const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}');
        if (data.action === 'opened' && !arrived.has(data.alert.wearer.uid))
          arrived.set(data.alert.wearer.uid, now);
      }
    }
  })().catch(() => undefined);

  // Optional background readings, through both servers (each gateway sticks to one).
  let stop = false;
  let sent = 0;
  const started = performance.now();
  const readerGateways = RATE > 0 ? Math.ceil(READERS / 100) : 0;
  const ingest = async (g) => {
    const perCycleMs = (readerGateways * 100 * 1000) / RATE;
    const base = g % 2 ? baseA : baseB;
    let cycle = 0;
    await new Promise((r) => setTimeout(r, (perCycleMs * (g - 1)) / readerGateways));
    while (!stop) {
      const at = new Date().toISOString();
      const readings = [];
      for (let w = (g - 1) * 100 + 1; w <= Math.min(g * 100, READERS); w++)
        readings.push({
          serialNumber: `BBR-${w}`,
          at,
          heartRate: 60 + ((w + cycle) % 40),
          worn: true,
        });
      const res = await fetch(`${base}/gateway/v1/batches`, {
        method: 'POST',
        headers: gw(g),
        body: JSON.stringify({ readings }),
      }).catch(() => null);
      if (res?.ok) sent += readings.length;
      await res?.arrayBuffer();
      cycle++;
      const next = started + cycle * perCycleMs + (perCycleMs * (g - 1)) / readerGateways;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  };
  const loops = Array.from({ length: readerGateways }, (_, i) => ingest(i + 1));
  await new Promise((r) => setTimeout(r, 2000)); // both servers listening on the bus, a steady rate

  const sentAt = new Map();
  for (let k = 0; k < SOS; k++) {
    const w = READERS + 1 + k;
    const body = JSON.stringify({
      events: [{ serialNumber: `BBR-${w}`, type: 'SOS', at: new Date().toISOString() }],
    });
    sentAt.set(`bw-${w}`, performance.now());
    void fetch(`${baseA}/gateway/v1/batches`, {
      method: 'POST',
      headers: gw(gatewayOf(w)),
      body,
    }).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, Number(values['sos-every-ms'])));
  }
  await new Promise((r) => setTimeout(r, 3000));
  stop = true;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(loops);
  abort.abort();

  const latencies = [...sentAt].flatMap(([uid, t]) =>
    arrived.has(uid) ? [arrived.get(uid) - t] : [],
  );
  const p = percentiles(latencies);
  const background =
    RATE > 0 ? `, ${Math.round(sent / seconds)} readings/s through both servers meanwhile` : '';
  console.log(
    `bus ${values.bus}: SOS on server A -> alert on server B's live stream: ${p.n}/${SOS} arrived, p50 ${p.p50} ms, ` +
      `p95 ${p.p95} ms, p99 ${p.p99} ms, max ${p.max} ms (target p99 <= ${TARGET_P99}: ${p.n === SOS && p.p99 <= TARGET_P99 ? 'met' : 'MISSED'})${background}; ${gateways} gateways`,
  );
  printMachine();
} finally {
  await stopServer(a);
  await stopServer(b);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
