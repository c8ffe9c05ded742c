// fhir: a month of one wearer's per-minute data (43,200 minutes: heart rate, skin temperature, steps) exported as a
// FHIR R4 Bundle through GET /v2/device/fhir?resolution=minute, streamed by the built server; five runs, each the
// time from the request to the last byte, with the bytes and entries received.
// Usage: npm run bench -- fhir [--runs 5] [--days 30] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target (issue 19): a month of per-minute data within 5 s on PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
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
import { openFreshDb, seedOrganization, signIn } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    days: { type: 'string', default: '30' },
    pg: { type: 'string' },
  },
});
const TARGET_MS = 5000;
requireBuild(SERVER_MAIN, 'the server');
const days = Number(values.days);

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-fhir-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ pgUrl: values.pg, dataDir });
await seedOrganization(fresh.db, { wearers: 1, withLatest: false, groups: 1 });
// The month ends at the start of this hour; every minute of it has a rollup, as a worn bracelet leaves.
const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const from = new Date(end.getTime() - days * 86_400_000);
await fresh.db.query(
  `INSERT INTO bracelet_assignments (bracelet_id, wearer_id, started_at) VALUES ('bb-1', 'bw-1', $1)`,
  [new Date(from.getTime() - 86_400_000)],
);
await fresh.db.query(
  `INSERT INTO reading_minutes (wearer_id, bucket, organization_id, reading_count, hr_count, hr_sum, hr_min, hr_max,
                               temp_count, temp_sum, temp_max, steps, worn_count, not_worn_count, latest_at)
   SELECT 'bw-1', m, 'org-bench', 1, 1, 60 + (extract(epoch from m)::bigint / 60) % 50, 60, 110,
          1, 33.5, 33.5, (extract(epoch from m)::bigint / 60) % 20, 1, 0, m
     FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 minute', interval '1 minute') m`,
  [from, end],
);
await fresh.db.query(
  `INSERT INTO reading_hours (wearer_id, bucket, organization_id, reading_count, hr_count, hr_sum, hr_min, hr_max,
                             temp_count, temp_sum, temp_max, steps, worn_minutes, data_minutes, latest_at)
   SELECT wearer_id, date_trunc('hour', bucket), organization_id, sum(reading_count), sum(hr_count), sum(hr_sum),
          min(hr_min), max(hr_max), sum(temp_count), sum(temp_sum), max(temp_max), sum(steps), 60, 60, max(latest_at)
     FROM reading_minutes GROUP BY 1, 2, 3`,
);
await fresh.db.query('ANALYZE');
await fresh.db.close();
console.log(`seeded ${days} days of per-minute rollups for one wearer (${days * 1440} minutes)`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = serverEnv(port, dataDir, {
  SEED_DEMO: 'false',
  ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
});
const server = startServer(env);
try {
  await waitForReady(baseUrl, server);
  const headers = { authorization: `Bearer ${await signIn(baseUrl)}` };
  const url = `${baseUrl}/v2/device/fhir?${new URLSearchParams({
    uid: 'bw-1',
    from: from.toISOString(),
    to: end.toISOString(),
    resolution: 'minute',
  })}`;
  const once = async () => {
    const started = performance.now();
    const cpuBefore = cpuMs(server.child.pid);
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    let bytes = 0;
    let firstByteMs = null;
    const reader = res.body.getReader();
    let tail = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      firstByteMs ??= performance.now() - started;
      bytes += value.length;
      tail = Buffer.from(value.subarray(Math.max(0, value.length - 8))).toString();
    }
    if (!tail.endsWith(']}')) throw new Error('the bundle did not end');
    return {
      ms: performance.now() - started,
      firstByteMs,
      bytes,
      serverCpuMs: cpuMs(server.child.pid) - cpuBefore,
    };
  };
  await once(); // warm-up
  const runs = [];
  for (let i = 0; i < Number(values.runs); i++) {
    const r = await once();
    runs.push(r);
    console.log(
      `run ${i + 1}: ${(r.ms / 1000).toFixed(2)} s to the last byte (first byte ${Math.round(r.firstByteMs)} ms), ` +
        `${(r.bytes / 1e6).toFixed(1)} MB, server CPU ${Math.round(r.serverCpuMs)} ms`,
    );
  }
  const times = runs.map((r) => r.ms);
  const med = median(times);
  const worst = Math.max(...times);
  console.log(
    `${values.pg ? 'PostgreSQL' : 'PGlite'}: ${days} days per minute: median ${(med / 1000).toFixed(2)} s, worst ` +
      `${(worst / 1000).toFixed(2)} s (target ${TARGET_MS / 1000} s: ${worst <= TARGET_MS ? 'met' : 'missed'})`,
  );
  printMachine();
} finally {
  await stopServer(server);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
