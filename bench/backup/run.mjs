// backup: a database holding a week of readings for 1,000 wearers (one reading a minute each: 10.08 million rows,
// with their minute and hour rollups), backed up and restored with the product's own commands (`backup --out`,
// `restore --in`), five times each. PGlite: the backup is taken by the running server through its control socket
// while /healthz is polled every 100 ms (the worst answer shows how much the server stalls); PostgreSQL: pg_dump /
// pg_restore into a new database. Prints the data size, the backup's size, each run's times, their median and
// worst, and the load average.
// Usage: npm run bench -- backup [--db pglite|postgres] [--wearers 1000] [--days 7] [--runs 5]
//        [--pg postgres://postgres@127.0.0.1:5432/postgres]
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
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
import { openFreshDb, seedOrganization } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    wearers: { type: 'string', default: '1000' },
    days: { type: 'string', default: '7' },
    runs: { type: 'string', default: '5' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
requireBuild(SERVER_MAIN, 'the server');
const WEARERS = Number(values.wearers);
const DAYS = Number(values.days);
const RUNS = Number(values.runs);
const postgres = values.db === 'postgres';

/** Runs the CLI; resolves with its wall time in seconds (rejects with its output on a failure). */
function cli(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [SERVER_MAIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - t0) / 1000, output })
        : reject(new Error(output)),
    );
  });
}

const du = (path) => Number(execFileSync('du', ['-sb', path]).toString().split('\t')[0]);
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

async function seedWeek(db) {
  await seedOrganization(db, { wearers: WEARERS, groups: 20 });
  const start = new Date(Date.now() - DAYS * 86400_000);
  start.setUTCSeconds(0, 0);
  for (let d = 0; d < DAYS; d++) {
    const t0 = performance.now();
    const dayStart = new Date(start.getTime() + d * 86400_000).toISOString();
    await db.query(
      `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate, skin_temperature, worn, steps, battery)
       SELECT 'bb-' || i, $1::timestamptz + make_interval(mins => m), 'bw-' || i, 'org-bench',
              60 + (i * 7 + m) % 50, 33 + ((i + m) % 40) / 10.0, (i + m) % 97 <> 0, (i * m) % 30, 20 + (i + d) % 80
         FROM generate_series(1, $2) i, generate_series(0, 1439) m, (SELECT $3::int AS d) k`,
      [dayStart, WEARERS, d],
    );
    await db.query(
      `INSERT INTO reading_minutes (wearer_id, bucket, organization_id, reading_count, hr_count, hr_sum, hr_min, hr_max,
                                    temp_count, temp_sum, temp_max, steps, worn_count, not_worn_count, latest_at, battery)
       SELECT wearer_id, date_trunc('minute', at), organization_id, count(*), count(heart_rate), sum(heart_rate),
              min(heart_rate), max(heart_rate), count(skin_temperature), sum(skin_temperature), max(skin_temperature),
              sum(steps), count(*) FILTER (WHERE worn), count(*) FILTER (WHERE NOT worn), max(at), min(battery)
         FROM readings WHERE at >= $1::timestamptz AND at < $1::timestamptz + interval '1 day'
        GROUP BY wearer_id, date_trunc('minute', at), organization_id`,
      [dayStart],
    );
    console.log(
      `  seeded day ${d + 1}/${DAYS} in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
  await db.query(
    `INSERT INTO reading_hours (wearer_id, bucket, organization_id, reading_count, hr_count, hr_sum, hr_min, hr_max,
                                temp_count, temp_sum, temp_max, steps, worn_minutes, data_minutes, latest_at)
     SELECT wearer_id, date_trunc('hour', bucket), organization_id, sum(reading_count), sum(hr_count), sum(hr_sum),
            min(hr_min), max(hr_max), sum(temp_count), sum(temp_sum), max(temp_max), sum(steps),
            count(*) FILTER (WHERE worn_count > 0), count(*), max(latest_at)
       FROM reading_minutes GROUP BY wearer_id, date_trunc('hour', bucket), organization_id`,
  );
  const [{ n }] = await db.query('SELECT count(*)::bigint AS n FROM readings');
  return Number(n);
}

/** Polls /healthz every 100 ms while `work` runs; the worst answer time in ms. */
async function worstHealthz(baseUrl, work) {
  let worst = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${baseUrl}/healthz`).then((r) => r.arrayBuffer());
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await work(), worst };
  } finally {
    done = true;
    await poll;
  }
}

const work = await mkdtemp(join(tmpdir(), 'wearable-bench-backup-'));
const dataDir = join(work, 'data');
const t0 = performance.now();
const { db, databaseUrl, drop } = await openFreshDb({
  pgUrl: postgres ? values.pg : undefined,
  dataDir,
});
console.log(
  `Seeding ${WEARERS} wearers x ${DAYS} days (one reading a minute) on ${postgres ? 'PostgreSQL' : 'PGlite'}…`,
);
const readings = await seedWeek(db);
let dataBytes;
if (postgres) {
  const [{ size }] = await db.query('SELECT pg_database_size(current_database())::bigint AS size');
  dataBytes = Number(size);
}
await db.close();
if (!postgres) dataBytes = du(dataDir);
console.log(
  `Seeded ${readings} readings in ${((performance.now() - t0) / 1000).toFixed(0)} s; data ${mb(dataBytes)}`,
);

const backups = [];
const restores = [];
const stalls = [];
let backupBytes = 0;
const load = [];
const port = await freePort();
const env = serverEnv(port, dataDir, postgres ? { DATABASE_URL: databaseUrl } : {});
const server = startServer(env);
await waitForReady(`http://127.0.0.1:${port}`, server);
try {
  for (let run = 1; run <= RUNS; run++) {
    const file = join(work, `backup-${run}${postgres ? '.dump' : '.tar.gz'}`);
    const { result, worst } = await worstHealthz(`http://127.0.0.1:${port}`, () =>
      cli(['backup', '--out', file], env),
    );
    backupBytes = (await stat(file)).size;
    backups.push(result.seconds);
    stalls.push(worst);
    let restoreEnv;
    let cleanup;
    if (postgres) {
      const name = `bench_restore_${Date.now()}`;
      const admin = new pg.Client({ connectionString: values.pg });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const u = new URL(values.pg);
      u.pathname = `/${name}`;
      restoreEnv = { ...env, DATABASE_URL: u.toString() };
      cleanup = async () => {
        const c = new pg.Client({ connectionString: values.pg });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      };
    } else {
      restoreEnv = { ...env, DATA_DIR: join(work, `restored-${run}`) };
      cleanup = () => rm(restoreEnv.DATA_DIR, { recursive: true, force: true });
    }
    const restored = await cli(['restore', '--in', file], restoreEnv);
    restores.push(restored.seconds);
    if (!restored.output.includes(`${readings} readings`))
      throw new Error(`the restore does not hold ${readings} readings: ${restored.output}`);
    await cleanup();
    await rm(file, { force: true });
    load.push(loadavg()[0]);
    console.log(
      `run ${run}: backup ${result.seconds.toFixed(1)} s (/healthz worst ${worst.toFixed(0)} ms), restore ${restored.seconds.toFixed(1)} s`,
    );
  }
} finally {
  await stopServer(server);
  await drop();
  await rm(work, { recursive: true, force: true });
}
const fmt = (xs) => `median ${median(xs).toFixed(1)} s, worst ${Math.max(...xs).toFixed(1)} s`;
console.log('');
console.log(
  `${postgres ? 'PostgreSQL' : 'PGlite'}: ${readings} readings, data ${mb(dataBytes)}, backup file ${mb(backupBytes)}`,
);
console.log(`backup:  ${fmt(backups)} (${backups.map((s) => s.toFixed(1)).join(', ')})`);
console.log(`restore: ${fmt(restores)} (${restores.map((s) => s.toFixed(1)).join(', ')})`);
console.log(
  `/healthz worst during the backup: median ${median(stalls).toFixed(0)} ms, worst ${Math.max(...stalls).toFixed(0)} ms`,
);
console.log(`load average (1 min) after each run: ${load.map((l) => l.toFixed(2)).join(', ')}`);
printMachine();
