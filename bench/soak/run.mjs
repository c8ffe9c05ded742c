// soak: the simulator at 10,000 wearers (one reading a minute each, with its realistic events: SOS, falls,
// removals, heat episodes) sends to a real server over HTTP in real time while 20 consoles hold the live stream
// (a ticket from POST /v3/live/ticket, then GET /v3/live?ticket=). Reports, over time, the server's memory
// (RSS, heap) and event-loop delay, with a verdict on growth after the warm-up; batch acknowledgement latency;
// and the time from a gateway sending an SOS/fall to the alert reaching every console.
// Usage: npm run bench -- soak [--minutes 30] [--db pglite|postgres] [--wearers 10000] [--consoles 20]
//        [--events-per-hour 120] [--sample-seconds 10] [--warmup-minutes 5] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Smoke run: npm run bench -- soak --minutes 2
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  cpuMs,
  ROOT,
  SERVER_MAIN,
  freePort,
  printMachine,
  requireBuild,
  serverEnv,
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
    minutes: { type: 'string', default: '30' },
    db: { type: 'string', default: 'pglite' },
    wearers: { type: 'string', default: '10000' },
    consoles: { type: 'string', default: '20' },
    'events-per-hour': { type: 'string', default: '120' },
    'sample-seconds': { type: 'string', default: '10' },
    'warmup-minutes': { type: 'string' },
    'batch-seconds': { type: 'string', default: '5' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
if (values.db !== 'pglite' && values.db !== 'postgres')
  throw new Error('--db must be pglite or postgres');
const MINUTES = Number(values.minutes);
const WEARERS = Number(values.wearers);
const CONSOLES = Number(values.consoles);
const SAMPLE_MS = Number(values['sample-seconds']) * 1000;
// Warm-up: caches, snapshots and JIT settle; memory is judged after it.
const WARMUP_MS = Number(values['warmup-minutes'] ?? Math.min(5, MINUTES / 3)) * 60_000;
requireBuild(SERVER_MAIN, 'the server');
const sim = await import(pathToFileURL(join(ROOT, 'apps/server/dist/simulator/index.js')).href);

printMachine();
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-soak-'));
const dataDir = join(folder, 'db');
const probeFile = join(folder, 'probe.jsonl');
writeFileSync(probeFile, '');
const fresh = await openFreshDb({
  pgUrl: values.db === 'postgres' ? values.pg : undefined,
  dataDir,
});
const { gateways } = await seedOrganization(fresh.db, { wearers: WEARERS, withLatest: false });
await fresh.db.close();

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = {
  ...serverEnv(port, dataDir, {
    SEED_DEMO: 'false',
    ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
  }),
  // A stream ends with its access token: tokens that outlive the run keep the consoles connected throughout.
  ACCESS_TOKEN_TTL: String(Math.ceil(MINUTES * 60 + 600)),
  SOAK_PROBE_FILE: probeFile,
  SOAK_PROBE_MS: String(SAMPLE_MS),
};
const child = spawn(
  process.execPath,
  ['--import', pathToFileURL(join(ROOT, 'bench/soak/probe.mjs')).href, SERVER_MAIN, 'start'],
  {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
const keep = (chunk) => (output = (output + chunk.toString()).slice(-8000));
child.stdout.on('data', keep);
child.stderr.on('data', keep);
const server = { child, output: () => output };

const abort = new AbortController();
try {
  await waitForReady(baseUrl, server);

  // 20 consoles, each its own sign-in (streams are capped per session), on the live stream through a ticket.
  const sosSent = new Map(); // wearer uid -> send time of the batch carrying its SOS/fall
  const delivered = []; // ms from send to arrival, per (console, alert)
  const frames = { alert: 0, summary: 0, other: 0 };
  const consoles = [];
  for (let c = 0; c < CONSOLES; c++) {
    const token = await signIn(baseUrl);
    const t = await fetch(`${baseUrl}/v3/live/ticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    if (!t.ok) throw new Error(`ticket failed: ${t.status} ${await t.text()}`);
    const { ticket } = await t.json();
    const res = await fetch(`${baseUrl}/v3/live?ticket=${encodeURIComponent(ticket)}`, {
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`live failed: ${res.status}`);
    consoles.push(
      (async () => {
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          const now = performance.now();
          // One split per chunk: slicing the buffer frame by frame is quadratic in the chunk's size, and with 20
          // consoles of 10,000 wearers' summaries it kept this process (which also sends the gateways' batches)
          // so busy that the acknowledgements it timed were seconds late.
          const parts = (buf + decoder.decode(value, { stream: true })).split('\n\n');
          buf = parts.pop() ?? '';
          for (const frame of parts) {
            const kind = /^event: (\w+)/m.exec(frame)?.[1];
            if (kind === 'alert') {
              frames.alert++;
              const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}');
              const sent =
                data.action === 'opened' ? sosSent.get(data.alert?.wearer?.uid) : undefined;
              if (
                sent !== undefined &&
                (data.alert.type === 'SOS_CALL' || data.alert.type === 'DETECT_FALL_DOWN')
              )
                delivered.push(now - sent);
            } else if (kind === 'summary') frames.summary++;
            else frames.other++;
          }
        }
      })().catch(() => undefined),
    );
  }

  // The simulator, in this process: the bench's own driver wrapper times every batch.
  const http = sim.createHttpDriver(baseUrl);
  const acks = [];
  let failed = 0;
  const driver = {
    name: 'http',
    async send(gateway, batch) {
      const t0 = performance.now();
      for (const e of batch.events) {
        if (e.type === 'SOS' || e.type === 'FALL') sosSent.set(`bw-${e.serialNumber.slice(4)}`, t0);
      }
      try {
        return await http.send(gateway, batch);
      } catch (err) {
        failed++;
        throw err;
      } finally {
        acks.push(performance.now() - t0);
      }
    },
    close: () => http.close(),
  };
  const simGateways = Array.from({ length: gateways }, (_, i) => {
    const g = i + 1;
    const serialNumbers = [];
    for (let w = i * 100 + 1; w <= Math.min(g * 100, WEARERS); w++) serialNumbers.push(`BBR-${w}`);
    return { gatewayId: `bgw-${g}`, credential: gatewayCredential(g), serialNumbers };
  });
  const credentials = new Map(simGateways.map((g) => [g.gatewayId, g]));
  const wearers = Object.fromEntries(
    simGateways.flatMap((g) => g.serialNumbers.map((s) => [s, { dutyCycleMinutes: 1 }])),
  );
  let simEvents = 0;
  const simulation = new sim.Simulation({
    seed: 9,
    start: new Date(),
    gateways: simGateways,
    wearers,
    timeZone: 'Asia/Tokyo',
    eventsPerHour: Number(values['events-per-hour']),
    onEvent: () => simEvents++,
  });
  const sender = new sim.BatchSender(driver, credentials, sim.silentLogger);
  const started = performance.now();
  const stopAt = new Date(Date.now() + MINUTES * 60_000);
  const running = sim.runSimulation(simulation, sender, {
    mode: 'realtime',
    batchIntervalMs: Number(values['batch-seconds']) * 1000,
    stopAt,
    signal: abort.signal,
  });

  // One line per sample while it runs.
  const rows = [];
  let lastAcks = 0;
  let lastDelivered = 0;
  let seenLines = 0;
  let cpu0 = cpuMs(child.pid);
  let sampleAt = performance.now();
  const header =
    'min   rss MB  heap MB  loop p50/p99/max ms  acks  ack p50/p99 ms  alerts p50/p99 ms  cpu  load';
  console.log(header);
  const sampler = setInterval(() => {
    const lines = readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean);
    // A new line only: a stalled server writes none (the stall shows in the next line's delay).
    if (lines.length === seenLines) return;
    seenLines = lines.length;
    const probe = JSON.parse(lines[lines.length - 1]);
    const a = percentiles(acks.slice(lastAcks));
    const d = percentiles(delivered.slice(lastDelivered));
    const nAcks = acks.length - lastAcks;
    lastAcks = acks.length;
    lastDelivered = delivered.length;
    const cpu1 = cpuMs(child.pid);
    const tNow = performance.now();
    const cores = cpu0 === null || cpu1 === null ? NaN : (cpu1 - cpu0) / (tNow - sampleAt);
    cpu0 = cpu1;
    sampleAt = tNow;
    const at = (performance.now() - started) / 60_000;
    rows.push({ at, probe, cores });
    console.log(
      `${at.toFixed(1).padStart(4)}  ${(probe.rss / 2 ** 20).toFixed(0).padStart(6)}  ${(probe.heapUsed / 2 ** 20).toFixed(0).padStart(7)}  ` +
        (probe.loop ? `${probe.loop.p50}/${probe.loop.p99}/${probe.loop.max}` : '-').padStart(19) +
        `  ${String(nAcks).padStart(4)}  ${`${a.p50}/${a.p99}`.padStart(14)}  ${`${d.p50}/${d.p99}`.padStart(17)}  ${cores.toFixed(2)}  ${loadavg()[0].toFixed(1)}`,
    );
  }, SAMPLE_MS);
  const stats = await running;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000)); // the last alerts reach the consoles
  abort.abort();
  await Promise.all(consoles);
  await driver.close();

  // Verdict: after the warm-up, the lowest heap (after a collection) and RSS of the last quarter against the first.
  const after = rows.filter((r) => r.at * 60_000 >= WARMUP_MS);
  const q = Math.max(1, Math.floor(after.length / 4));
  const low = (list, key) => Math.min(...list.map((r) => r.probe[key])) / 2 ** 20;
  let verdict = 'not judged (too few samples after the warm-up; run longer)';
  if (after.length >= 4) {
    const first = after.slice(0, q);
    const last = after.slice(-q);
    const heap = [low(first, 'heapUsed'), low(last, 'heapUsed')];
    const rss = [low(first, 'rss'), low(last, 'rss')];
    const grows = (x) => x[1] > x[0] * 1.1 + 8;
    verdict =
      `heap low ${heap[0].toFixed(0)} -> ${heap[1].toFixed(0)} MB, RSS low ${rss[0].toFixed(0)} -> ${rss[1].toFixed(0)} MB: ` +
      (grows(heap) || grows(rss)
        ? 'GROWS after the warm-up (> 10 % + 8 MB)'
        : 'no growth after the warm-up');
  }
  const loops = rows
    .filter((r) => r.at * 60_000 >= WARMUP_MS && r.probe.loop)
    .map((r) => r.probe.loop);
  const all = percentiles(acks);
  const alerts = percentiles(delivered);
  console.log(
    `\nsoak on ${values.db === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${WEARERS} wearers on ${gateways} gateways, ${CONSOLES} consoles, ${MINUTES} min (warm-up ${(WARMUP_MS / 60_000).toFixed(1)} min)`,
  );
  console.log(
    `sent: ${stats.readings} readings (${Math.round(stats.readings / (MINUTES * 60))}/s), ${stats.events} events (${simEvents} simulated incidents), ${stats.batches} batches, ${failed} failed, ${stats.rejected} items refused`,
  );
  console.log(
    `batch ack latency: p50 ${all.p50} ms, p95 ${all.p95} ms, p99 ${all.p99} ms, max ${all.max} ms`,
  );
  console.log(
    `SOS/fall send -> alert on a console (every console counted): n ${alerts.n}, p50 ${alerts.p50} ms, p95 ${alerts.p95} ms, p99 ${alerts.p99} ms, max ${alerts.max} ms`,
  );
  console.log(
    `event-loop delay after warm-up: worst p99 ${Math.max(...loops.map((l) => l.p99), 0)} ms, worst max ${Math.max(...loops.map((l) => l.max), 0)} ms`,
  );
  console.log(
    `live frames: ${frames.summary} summary, ${frames.alert} alert, ${frames.other} other`,
  );
  console.log(`memory: ${verdict}`);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  abort.abort();
  await stopServer(server);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
