// ingestion: simulated gateways send batches to a real server process (built app) as fast as each batch is
// acknowledged; every reading is validated, stored (rollups, latest values) and evaluated by the alert engine.
// Reports sustained readings/s over the measuring window, then checks that every reading sent is stored once.
// Usage: npm run bench -- ingestion [--via http|mqtt] [--db pglite|postgres] [--gateways 50] [--bracelets 20]
//        [--per-bracelet 5] [--seconds 20] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Targets: >= 5,000 readings/s on PostgreSQL (aim 20,000), >= 1,000 readings/s on PGlite.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import pg from 'pg';
import {
  ROOT,
  SERVER_MAIN,
  freePort,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import { openFreshDb } from '../summary/seed.mjs';
import { countReadings, seedGateways } from './seed.mjs';

const { values } = parseArgs({
  options: {
    via: { type: 'string', default: 'http' },
    db: { type: 'string', default: 'pglite' },
    gateways: { type: 'string', default: '50' },
    bracelets: { type: 'string', default: '20' },
    'per-bracelet': { type: 'string', default: '5' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    // Writes a V8 CPU profile of the server to this folder.
    profile: { type: 'string' },
    // Prints PostgreSQL's statements of the measuring window (needs pg_stat_statements loaded).
    statements: { type: 'boolean', default: false },
  },
});
const via = values.via;
if (via !== 'http' && via !== 'mqtt') throw new Error('--via must be http or mqtt');
if (values.db !== 'pglite' && values.db !== 'postgres')
  throw new Error('--db must be pglite or postgres');
const GATEWAYS = Number(values.gateways);
const BRACELETS = Number(values.bracelets);
const PER_BRACELET = Number(values['per-bracelet']);
const TARGET = values.db === 'postgres' ? 5000 : 1000;
requireBuild(SERVER_MAIN, 'the server');

printMachine();
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-ingestion-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({
  pgUrl: values.db === 'postgres' ? values.pg : undefined,
  dataDir,
});
const gateways = await seedGateways(fresh.db, { gateways: GATEWAYS, bracelets: BRACELETS });
// The readings partitions of the past days exist, as on a server that has run for a day: without
// them the leader's first partition job (10 s after start) moves the rows stored so far out of the
// default partition inside the measuring window, a cost of a fresh database only.
await preparePartitions(fresh.db);
await fresh.db.close();

const port = await freePort();
const mqttPort = via === 'mqtt' ? await freePort() : 0;
const baseUrl = `http://127.0.0.1:${port}`;
const env = serverEnv(port, dataDir, {
  SEED_DEMO: 'false',
  MQTT_PORT: String(mqttPort),
  ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
});
const server = values.profile ? startProfiled(env, values.profile) : startServer(env);
const serverStarted = performance.now();
let sent = 0;
let acceptedTotal = 0;
try {
  await waitForReady(baseUrl, server);
  // Readings start 6 hours back and advance one second per reading per bracelet: never "in the future".
  const origin = Date.now() - 6 * 3_600_000;
  const batchOf = (g, seq) => {
    const readings = [];
    for (const serial of g.serials) {
      for (let k = 0; k < PER_BRACELET; k++) {
        const second = seq * PER_BRACELET + k;
        readings.push({
          serialNumber: serial,
          at: new Date(origin + second * 1000).toISOString(),
          heartRate: 60 + ((second * 7 + serial.length) % 40),
          skinTemperature: 33 + (second % 20) / 10,
          worn: true,
          steps: second % 3,
          battery: 90,
        });
      }
    }
    const at = new Date(origin + seq * PER_BRACELET * 1000).toISOString();
    return {
      batchId: `${g.id}-${seq}`,
      readings,
      environment: [{ at, temperature: 28, humidity: 60, wbgt: 25 }],
    };
  };

  let measuring = false;
  let measured = 0;
  let stop = false;
  const send = via === 'http' ? await httpSender(baseUrl) : await mqttSender(mqttPort);
  // Gateways connect (authenticate) one after another: many at once from one address meet the
  // unknown-gateway throttle, which is not what this bench measures.
  const clients = [];
  for (const g of gateways) clients.push(await send.open(g));
  // A refused batch ends the run: every loop stops, and the server and the database are removed
  // below (a rejection left to itself would end the process with both still there).
  let failed;
  const loops = gateways.map(async (g, i) => {
    const client = clients[i];
    try {
      for (let seq = 0; !stop; seq++) {
        const batch = batchOf(g, seq);
        const accepted = await client.send(batch);
        sent += batch.readings.length;
        acceptedTotal += accepted;
        if (measuring) measured += batch.readings.length;
      }
    } catch (err) {
      failed ??= err;
      stop = true;
    }
    await client.close();
  });
  /** Waits `ms`, or less when a loop failed; then throws that failure. */
  const wait = async (ms) => {
    const until = performance.now() + ms;
    while (!failed && performance.now() < until)
      await new Promise((r) => setTimeout(r, Math.min(200, until - performance.now())));
    if (failed) throw failed;
  };
  await wait(Number(values.warmup) * 1000);
  measuring = true;
  if (values.statements) await statements(values.pg, 'reset');
  const t0 = performance.now();
  const cpu0 = processTreeCpu(server.child.pid);
  const pg0 = await postgresCpu(fresh.databaseUrl);
  await wait(Number(values.seconds) * 1000);
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = processTreeCpu(server.child.pid) - cpu0;
  const pgCpu = (await postgresCpu(fresh.databaseUrl)) - pg0;
  if (values.statements) await statements(values.pg, fresh.databaseUrl);
  if (values.profile)
    console.log(
      `profile: measuring window from ${((t0 - serverStarted) / 1000).toFixed(1)} s to ` +
        `${((t0 - serverStarted) / 1000 + seconds).toFixed(1)} s after the server started`,
    );
  stop = true;
  await Promise.all(loops);
  if (failed) throw failed;
  const rate = Math.round(measured / seconds);
  console.log(
    `ingestion via ${via} on ${values.db}: ${GATEWAYS} gateways x ${BRACELETS} bracelets, ${BRACELETS * PER_BRACELET} readings/batch, ` +
      `${measured} readings acknowledged in ${seconds.toFixed(1)} s = ${rate} readings/s (target >= ${TARGET})`,
  );
  // The machine is shared: readings per CPU-second of the server process says more than wall-clock rate.
  console.log(
    `server process CPU: ${serverCpu.toFixed(1)} s in the window = ${Math.round(measured / serverCpu)} readings per server CPU-second` +
      (fresh.databaseUrl
        ? `; PostgreSQL backends: ${pgCpu.toFixed(1)} s = ${Math.round(measured / pgCpu)} readings per PostgreSQL CPU-second`
        : ''),
  );
  // The cost per reading: what a machine of any size carries follows from it (docs/scaling.md).
  console.log(
    `CPU per reading: server ${((serverCpu / measured) * 1e6).toFixed(1)} µs` +
      (fresh.databaseUrl ? `, PostgreSQL ${((pgCpu / measured) * 1e6).toFixed(1)} µs` : '') +
      ` (server = all its processes, WORKERS=${env.WORKERS})`,
  );
} catch (err) {
  await stopServer(server);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
  throw err;
}
await stopServer(server);
const stored = await countReadings({ databaseUrl: fresh.databaseUrl, dataDir });
console.log(
  `check: ${sent} readings sent, ${stored} stored (${stored === sent ? 'all, once' : 'MISMATCH'})`,
);
await fresh.drop();
await rm(folder, { recursive: true, force: true });
if (stored !== sent) process.exit(1);

async function httpSender(url) {
  return {
    async open(g) {
      const headers = {
        authorization: `Gateway ${g.id}:${g.credential}`,
        'content-type': 'application/json',
      };
      for (;;) {
        const res = await fetch(`${url}/gateway/v1/batches`, {
          method: 'POST',
          headers,
          body: '{"readings":[]}',
        });
        await res.arrayBuffer();
        if (res.status !== 429) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      return {
        async send(batch) {
          let res = await fetch(`${url}/gateway/v1/batches`, {
            method: 'POST',
            headers,
            body: JSON.stringify(batch),
          });
          // 50 gateways starting at once from one address meet the unknown-gateway throttle (each first
          // look-up takes a token until it succeeds): wait as told and send again (idempotent).
          while (res.status === 429) {
            await res.arrayBuffer();
            await new Promise((r) =>
              setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000),
            );
            res = await fetch(`${url}/gateway/v1/batches`, {
              method: 'POST',
              headers,
              body: JSON.stringify(batch),
            });
          }
          const body = await res.json();
          if (!res.ok || body.rejected.length)
            throw new Error(`batch refused: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
          return body.accepted;
        },
        async close() {},
      };
    },
  };
}

async function mqttSender(brokerPort) {
  return {
    async open(g) {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${brokerPort}`, {
        username: g.id,
        password: g.credential,
        clientId: `${g.id}/bench`,
        reconnectPeriod: 0,
      });
      return {
        // The PUBACK comes after the server committed the batch.
        async send(batch) {
          await client.publishAsync(`gateways/${g.id}/batches`, JSON.stringify(batch), { qos: 1 });
          return batch.readings.length;
        },
        close: () => client.endAsync(),
      };
    },
  };
}

/** utime + stime of a process, in seconds (Linux /proc; NaN elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of a process and its descendants (WORKERS > 1 forks workers). */
function processTreeCpu(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // ended meanwhile
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents)
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
  }
  return [...tree].reduce((sum, p) => sum + (cpuSeconds(p) || 0), 0);
}

/** The readings partitions a running server's leader keeps prepared (modules/readings/partitions.ts). */
async function preparePartitions(db) {
  const { ensurePartitions } = await import(
    new URL('../../apps/server/dist/modules/readings/partitions.js', import.meta.url).href
  );
  await ensurePartitions(db, new Date(), Number(process.env.READINGS_PARTITION_DAYS ?? 1));
}

/**
 * pg_stat_statements over the measuring window: 'reset' at its start; at its end, the statements
 * of the bench's database by total time (execution and planning), per call and per reading.
 */
async function statements(adminUrl, databaseUrl) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (databaseUrl === 'reset') {
      await client.query('SELECT pg_stat_statements_reset()');
      return;
    }
    const name = new URL(databaseUrl).pathname.slice(1);
    const { rows } = await client.query(
      `SELECT calls, total_exec_time + total_plan_time AS ms, total_plan_time AS plan_ms, rows,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1 ORDER BY 2 DESC LIMIT 12`,
      [name],
    );
    console.log(
      'statements in the window (pg_stat_statements): calls, ms total (of it planning), rows',
    );
    for (const r of rows)
      console.log(
        `  ${String(r.calls).padStart(6)} ${r.ms.toFixed(0).padStart(7)} ms (${r.plan_ms.toFixed(0)}) ${String(r.rows).padStart(7)}  ${r.query}`,
      );
  } finally {
    await client.end();
  }
}

/** CPU seconds of the PostgreSQL backends serving this database (same machine). */
async function postgresCpu(databaseUrl) {
  if (!databaseUrl) return 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.reduce((sum, r) => sum + (cpuSeconds(r.pid) || 0), 0);
}

function startProfiled(env, dir) {
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, SERVER_MAIN, 'start'],
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
  return { child, output: () => output };
}
