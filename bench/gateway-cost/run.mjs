// gateway-cost (issue 18): what an April Brother AB BLE Gateway V4 at its maximum of 210 advertisements a
// second costs the server end to end: a real server process (built app, PGlite unless --db postgres); one
// MessagePack message of 210 advertisements each second over HTTP (its secret-path URL), 50 of the tags registered
// bracelets with wearers, the rest heard but not registered. Measures the server process's CPU time (user +
// system, /proc) over the window, divided by the wall time: the fraction of one core. Five runs, median and worst.
// Usage: npm run bench -- gateway-cost [--seconds 20] [--runs 5] [--db pglite|postgres] [--pg postgres://…]
//   [--cpu-prof <dir>]: the server runs with `node --cpu-prof`; its profile and the measured window (monotonic µs,
//   the profile's clock) go to <dir>, for `node bench/gateway-cost/profile-top.mjs <dir>`.
// The server runs with its own settings, so a registered tag that is only heard is stored once per
// VENDOR_PRESENCE_INTERVAL_MS (default 10 s; docs/gateway-adapters.md, "Presence, once per window"); the shell may
// set it (0 = one presence reading per request, as before the window), and the bench prints what it ran with.
// Target: at most 5% of a core.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encode } from '@msgpack/msgpack';
import {
  SERVER_MAIN,
  cpuMs,
  freePort,
  median,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import { openFreshDb } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    runs: { type: 'string', default: '5' },
    db: { type: 'string', default: 'pglite' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'cpu-prof': { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const PROFILE_DIR = values['cpu-prof'];
if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });
/** CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const RATE = 210;
const REGISTERED = 50;
const TAGS = 150;
requireBuild(SERVER_MAIN, 'the server');
printMachine();
console.log(
  `presence window: VENDOR_PRESENCE_INTERVAL_MS=${process.env.VENDOR_PRESENCE_INTERVAL_MS ?? '(server default, 10000)'}`,
);

const IBEACON = '0201061AFF4C000215B5B182C7EAB14988AA99B5C1517008D90001CF64C5';
const mac = (n) => (0xac2300000000 + n).toString(16).toUpperCase().padStart(12, '0');
/** One second of an AB V4: 210 advertisements spread over TAGS tags (a tag is heard about 1.4 times a second). */
const message = (second) =>
  Buffer.from(
    encode({
      v: '1.5.5',
      mid: second,
      time: second,
      ip: '10.0.0.2',
      mac: 'C8FD19000001',
      devices: Array.from({ length: RATE }, (_, i) =>
        Buffer.from(
          `00${mac((second * RATE + i) % TAGS)}${(0xb0 + (i % 16)).toString(16)}${IBEACON}`,
          'hex',
        ),
      ),
    }),
  );

async function seed(db) {
  const org = 'org-bench-gateway-cost';
  const secret = 'bench-path-secret';
  await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'ベンチ AB V4')`, [org]);
  await db.query(
    `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash, kind, path_secret_hash)
     VALUES ('gw-ab', $1, 'STATIONARY', 'AB-V4-1', 'AB V4', $2, 'aprilbrother', $3)`,
    [
      org,
      createHash('sha256').update('unused').digest('hex'),
      createHash('sha256').update(secret).digest('hex'),
    ],
  );
  for (let i = 0; i < REGISTERED; i++) {
    await db.query(
      `INSERT INTO users (id, organization_id, role, name, birth_date) VALUES ($1, $2, NULL, $3, '1980-01-01')`,
      [`w-${i}`, org, `装着者 ${i}`],
    );
    await db.query(
      `INSERT INTO bracelets (id, organization_id, serial_number, device_name, wearer_id, gateway_id, battery)
       VALUES ($1, $2, $3, 'Tag', $4, 'gw-ab', 100)`,
      [`b-${i}`, org, mac(i), `w-${i}`],
    );
  }
  return `/gateway/v1/aprilbrother/gw-ab/${secret}`;
}

const fractions = [];
const loads = [];
for (let run = 1; run <= RUNS; run++) {
  const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-gateway-cost-'));
  const dataDir = join(folder, 'db');
  const fresh = await openFreshDb({
    pgUrl: values.db === 'postgres' ? values.pg : undefined,
    dataDir,
  });
  const path = await seed(fresh.db);
  await fresh.db.close();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer(
    serverEnv(port, dataDir, {
      SEED_DEMO: 'false',
      MQTT_PORT: '0',
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    }),
    PROFILE_DIR
      ? [
          '--cpu-prof',
          '--cpu-prof-dir',
          PROFILE_DIR,
          '--cpu-prof-name',
          `server-run${run}.cpuprofile`,
        ]
      : [],
  );
  try {
    await waitForReady(baseUrl, server);
    const post = async (second) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/msgpack' },
        body: message(second),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    // Warm-up: three seconds (caches, JIT).
    for (let s = 0; s < 3; s++) {
      await post(s);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const cpu0 = cpuMs(server.child.pid);
    const window0 = monotonicUs();
    const t0 = performance.now();
    for (let s = 3; s < 3 + SECONDS; s++) {
      const due = t0 + (s - 2) * 1000;
      await post(s);
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    const wall = performance.now() - t0;
    const fraction = (cpuMs(server.child.pid) - cpu0) / wall;
    if (PROFILE_DIR)
      await writeFile(
        join(PROFILE_DIR, `server-run${run}.window.json`),
        JSON.stringify({ startUs: window0, endUs: monotonicUs() }),
      );
    fractions.push(fraction);
    loads.push(loadavg()[0]);
    console.log(
      `run ${run}: ${(fraction * 100).toFixed(2)}% of a core over ${(wall / 1000).toFixed(1)} s ` +
        `(${RATE} advertisements/s, ${REGISTERED} registered tags of ${TAGS}), load ${loadavg()[0].toFixed(2)}`,
    );
  } finally {
    await stopServer(server);
    await rm(folder, { recursive: true, force: true });
  }
}
const worst = Math.max(...fractions);
console.log(
  `gateway-cost (${values.db}): median ${(median(fractions) * 100).toFixed(2)}%, worst ${(worst * 100).toFixed(2)}% ` +
    `of a core (target <= 5%); load average during runs ${loads.map((l) => l.toFixed(2)).join(', ')}`,
);
process.exitCode = worst <= 0.05 ? 0 : 1;
