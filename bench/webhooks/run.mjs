// webhooks: (1) event -> delivery: while gateways ingest readings, gateways send SOS events; the time from the
// gateway's send to the signed webhook's arrival at a receiver on 127.0.0.1 (p50/p95/p99 over --sos events);
// (2) fan-out: ingestion (readings/s, batch acknowledgement p50/p99) for --window seconds without webhooks, then
// again while one SOS is delivered to --endpoints endpoints, and how long until all of them had it.
// Usage: npm run bench -- webhooks [--db pglite|postgres] [--runs 5] [--rate 300] [--sos 50] [--endpoints 1000]
//        [--window 6] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target: p99 event -> delivery <= 1000 ms; ingestion with the fan-out within noise of without.
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  SERVER_MAIN,
  freePort,
  median,
  printMachine,
  requireBuild,
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
    db: { type: 'string', default: 'pglite' },
    runs: { type: 'string', default: '5' },
    rate: { type: 'string', default: '300' },
    sos: { type: 'string', default: '50' },
    endpoints: { type: 'string', default: '1000' },
    window: { type: 'string', default: '6' },
    pg: { type: 'string' },
  },
});
const DB = values.db;
const PG_URL =
  DB === 'postgres' ? (values.pg ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
requireBuild(SERVER_MAIN, 'the server');
const RATE = Number(values.rate);
const SOS = Number(values.sos);
const FANOUT = Number(values.endpoints);
const WINDOW_MS = Number(values.window) * 1000;
const READERS = 300;
const KEY = 'bench-webhooks-encryption-key-0123456789';
const dist = (p) => import(new URL(`../../apps/server/dist/${p}`, import.meta.url).href);

/** The receiver: arrival time of each delivery by wearer (alert.opened) and a count per path. */
async function receiver() {
  const firstByWearer = new Map();
  let count = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      count++;
      if (req.url === '/latency') {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        const uid = body.data?.alert?.wearer?.uid;
        if (uid && !firstByWearer.has(uid)) firstByWearer.set(uid, now);
      }
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: (path) => `http://127.0.0.1:${server.address().port}${path}`,
    firstByWearer,
    count: () => count,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function oneRun(run) {
  const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-webhooks-'));
  const dataDir = join(folder, 'db');
  const rx = await receiver();
  const fresh = await openFreshDb({ pgUrl: PG_URL, dataDir });
  await seedOrganization(fresh.db, { wearers: READERS + SOS + 1, withLatest: false });
  const { secretBox } = await dist('modules/auth/secret-box.js');
  const sealed = await secretBox({ config: { totpEncryptionKey: KEY }, db: fresh.db }).seal(
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  );
  // One endpoint for the latency phase; FANOUT more, disabled until the fan-out phase.
  await fresh.db.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, secret_sealed, enabled, created_at, updated_at)
     VALUES ('whk-latency', 'org-bench', $1, ARRAY['alert.opened'], $2, true, now(), now())`,
    [rx.url('/latency'), sealed],
  );
  await fresh.db.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, event_types, secret_sealed, enabled, disabled_reason,
                                    created_at, updated_at)
     SELECT 'whk-fan-' || i, 'org-bench', $1 || i, ARRAY['alert.opened'], $2, false, 'manual', now(), now()
       FROM generate_series(1, $3) i`,
    [rx.url('/fan/'), sealed, FANOUT],
  );
  await fresh.db.close();

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer(
    serverEnv(port, dataDir, {
      SEED_DEMO: 'false',
      TOTP_ENCRYPTION_KEY: KEY,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    }),
  );
  const gw = (i) => ({
    authorization: `Gateway bgw-${i}:${gatewayCredential(i)}`,
    'content-type': 'application/json',
  });
  const gatewayOf = (wearer) => 1 + Math.floor((wearer - 1) / 100);
  let stop = false;
  try {
    await waitForReady(baseUrl, server);
    const token = await signIn(baseUrl);
    const gateways = Math.ceil((READERS + SOS + 1) / 100);
    for (let g = 1; g <= gateways; g++) {
      const res = await fetch(`${baseUrl}/gateway/v1/batches`, {
        method: 'POST',
        headers: gw(g),
        body: JSON.stringify({ readings: [] }),
      });
      await res.arrayBuffer();
    }

    // Readings at RATE/s from READERS wearers (3 gateways), each batch's acknowledgement timed.
    let acks = [];
    let sent = 0;
    // A request that fails (refused, reset, timed out on a loaded machine) is counted, not thrown: a
    // rejection nobody awaits yet would end the process before `finally` stops the server and drops
    // the database.
    const failures = { batches: 0, sos: 0, last: '' };
    const failed = (what, err) => {
      failures[what]++;
      failures.last =
        err instanceof Error ? `${err.message} ${err.cause ?? ''}`.trim() : String(err);
    };
    const ingest = async (g) => {
      const perCycleMs = (100 * 1000 * (READERS / 100)) / RATE;
      let cycle = 0;
      const started = performance.now();
      while (!stop) {
        const at = new Date().toISOString();
        const readings = [];
        for (let w = (g - 1) * 100 + 1; w <= g * 100; w++)
          readings.push({ serialNumber: `BBR-${w}`, at, heartRate: 70, worn: true, steps: 1 });
        const t = performance.now();
        try {
          const res = await fetch(`${baseUrl}/gateway/v1/batches`, {
            method: 'POST',
            headers: gw(g),
            body: JSON.stringify({ readings }),
          });
          await res.arrayBuffer();
          if (res.ok) {
            sent += readings.length;
            acks.push(performance.now() - t);
          } else failed('batches', `HTTP ${res.status}`);
        } catch (err) {
          failed('batches', err);
        }
        cycle++;
        await new Promise((r) =>
          setTimeout(r, Math.max(0, started + cycle * perCycleMs - performance.now())),
        );
      }
    };
    const loops = [1, 2, 3].map(ingest);
    await new Promise((r) => setTimeout(r, 2000));

    // (1) SOS -> webhook at the receiver.
    const sentAt = new Map();
    for (let k = 0; k < SOS; k++) {
      const w = READERS + 1 + k;
      const t = performance.now();
      sentAt.set(`bw-${w}`, t);
      void fetch(`${baseUrl}/gateway/v1/batches`, {
        method: 'POST',
        headers: gw(gatewayOf(w)),
        body: JSON.stringify({
          events: [{ serialNumber: `BBR-${w}`, type: 'SOS', at: new Date().toISOString() }],
        }),
      })
        .then((r) => r.arrayBuffer())
        .catch((err) => failed('sos', err));
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 3000));
    const latency = percentiles(
      [...sentAt].flatMap(([uid, t]) =>
        rx.firstByWearer.has(uid) ? [rx.firstByWearer.get(uid) - t] : [],
      ),
    );

    // (2) Ingestion without, then with, a fan-out of one event to FANOUT endpoints.
    const measure = async (during) => {
      acks = [];
      const before = sent;
      const t0 = performance.now();
      // Settled at once into a value: awaited only after the window.
      const extra = (during ? during() : Promise.resolve(null)).catch((err) => {
        failed('sos', err);
        return { allMs: NaN, got: 0 };
      });
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const seconds = (performance.now() - t0) / 1000;
      const p = percentiles(acks);
      return {
        rate: Math.round((sent - before) / seconds),
        p50: p.p50,
        p99: p.p99,
        extra: await extra,
      };
    };
    const without = await measure(null);
    for (let i = 1; i <= FANOUT; i++) {
      const res = await fetch(`${baseUrl}/v2/webhook/whk-fan-${i}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`enable failed: ${res.status}`);
    }
    const countBefore = rx.count();
    const withFanout = await measure(async () => {
      await new Promise((r) => setTimeout(r, 1000));
      const w = READERS + SOS + 1;
      const t = performance.now();
      await fetch(`${baseUrl}/gateway/v1/batches`, {
        method: 'POST',
        headers: gw(gatewayOf(w)),
        body: JSON.stringify({
          events: [{ serialNumber: `BBR-${w}`, type: 'SOS', at: new Date().toISOString() }],
        }),
      }).then((r) => r.arrayBuffer());
      const end = t + 60_000;
      while (rx.count() - countBefore < FANOUT + 1 && performance.now() < end)
        await new Promise((r) => setTimeout(r, 20));
      return { allMs: Math.round(performance.now() - t), got: rx.count() - countBefore };
    });
    stop = true;
    await Promise.all(loops);
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error('the server exited during the run');
    const result = { latency, without, withFanout, failures, load: loadavg()[0].toFixed(1) };
    console.log(
      `run ${run}: event->delivery p50 ${latency.p50} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms (${latency.n}/${SOS}); ` +
        `ingestion without ${without.rate}/s ack p50 ${without.p50} p99 ${without.p99} ms; ` +
        `with ${FANOUT}-endpoint fan-out ${withFanout.rate}/s ack p50 ${withFanout.p50} p99 ${withFanout.p99} ms, ` +
        `all ${withFanout.extra.got} delivered in ${withFanout.extra.allMs} ms; load ${result.load}` +
        (failures.batches || failures.sos
          ? `; FAILED requests: ${failures.batches} batches, ${failures.sos} SOS (last: ${failures.last})`
          : ''),
    );
    return result;
  } finally {
    stop = true; // the ingestion loops, when a step above threw
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      console.error(
        `the server exited (${server.child.exitCode ?? server.child.signalCode}):\n${server.output()}`,
      );
    await stopServer(server);
    await rx.close();
    await fresh.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

printMachine();
const runs = [];
for (let r = 1; r <= Number(values.runs); r++) runs.push(await oneRun(r));
const pick = (f) => runs.map(f);
const worst = (xs) => Math.max(...xs);
const best = (xs) => Math.min(...xs);
const db = DB === 'postgres' ? 'PostgreSQL' : 'PGlite';
const p99s = pick((r) => r.latency.p99);
console.log(
  `${db} ${runs.length} runs: event->delivery p99 median ${median(p99s)} ms, worst ${worst(p99s)} ms ` +
    `(target <= 1000: ${worst(p99s) <= 1000 ? 'met' : 'MISSED'}); ` +
    `ingestion without: ${median(pick((r) => r.without.rate))}/s (worst ${best(pick((r) => r.without.rate))}), ack p99 median ${median(pick((r) => r.without.p99))} ms (worst ${worst(pick((r) => r.without.p99))}); ` +
    `with ${FANOUT} endpoints: ${median(pick((r) => r.withFanout.rate))}/s (worst ${best(pick((r) => r.withFanout.rate))}), ack p99 median ${median(pick((r) => r.withFanout.p99))} ms (worst ${worst(pick((r) => r.withFanout.p99))}); ` +
    `fan-out all delivered median ${median(pick((r) => r.withFanout.extra.allMs))} ms (worst ${worst(pick((r) => r.withFanout.extra.allMs))}); ` +
    `load ${pick((r) => r.load).join(', ')}`,
);
