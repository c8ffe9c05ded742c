// ingestion: simulated gateways send batches to a real server process (built app) as fast as each batch is
// acknowledged; every reading is validated, stored (rollups, latest values) and evaluated by the alert engine.
// Reports sustained readings/s over the measuring window, then checks that every reading sent is stored once.
// Usage: npm run bench -- ingestion [--via http|mqtt] [--db pglite|postgres] [--gateways 50] [--bracelets 20]
//        [--per-bracelet 5] [--seconds 20] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Targets: >= 5,000 readings/s on PostgreSQL (aim 20,000), >= 1,000 readings/s on PGlite.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  const loops = gateways.map(async (g, i) => {
    const client = clients[i];
    for (let seq = 0; !stop; seq++) {
      const batch = batchOf(g, seq);
      const accepted = await client.send(batch);
      sent += batch.readings.length;
      acceptedTotal += accepted;
      if (measuring) measured += batch.readings.length;
    }
    await client.close();
  });
  await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
  measuring = true;
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.child.pid);
  const pg0 = await postgresCpu(fresh.databaseUrl);
  await new Promise((r) => setTimeout(r, Number(values.seconds) * 1000));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = cpuSeconds(server.child.pid) - cpu0;
  const pgCpu = (await postgresCpu(fresh.databaseUrl)) - pg0;
  stop = true;
  await Promise.all(loops);
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
} finally {
  await stopServer(server);
}
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
