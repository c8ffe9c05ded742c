// confirm: POST /v2/alert/batchConfirm with 1,000 alerts (the target: at most 1 s on PGlite), through the
// built app in-process (app.inject: routing, validation, access, the set-based confirmation, the engine step of each
// open one). Each run confirms 1,000 fresh alerts on 1,000 wearers, a share of them already closed by recovery.
// Usage: npm run bench -- confirm [--alerts 1000] [--runs 5] [--closed-share 0.3] [--db pglite|postgres]
// [--pg postgres://postgres@127.0.0.1:5432/postgres]. Prints each run, the median and the worst, and the load average.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, SERVER_MAIN, median, printMachine, requireBuild } from '../foundation/_lib.mjs';
import { OWNER_EMAIL, OWNER_PASSWORD, openFreshDb, seedOrganization } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    alerts: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '5' },
    'closed-share': { type: 'string', default: '0.3' },
    db: { type: 'string', default: 'pglite' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
requireBuild(SERVER_MAIN, 'the server');
const dist = (p) => import(pathToFileURL(join(ROOT, 'apps/server/dist', p)).href);
const { loadConfig } = await dist('config.js');
const { createContext } = await dist('context.js');
const { buildApp } = await dist('app.js');

const alerts = Number(values.alerts);
const runs = Number(values.runs);
const closedShare = Number(values['closed-share']);
const TYPES = [
  'HEART_RATE',
  'NON_WEARING',
  'DISCONNECTION',
  'HEART_RATE_ANOMALY_SUSTAINED',
  'HEATSTROKE',
];
const LEVELS = {
  HEART_RATE: 'CAUTION',
  NON_WEARING: 'DEVICE_STATUS',
  DISCONNECTION: 'DEVICE_STATUS',
  HEART_RATE_ANOMALY_SUSTAINED: 'CRITICAL',
  HEATSTROKE: 'CRITICAL',
};

printMachine();
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-confirm-'));
const fresh = await openFreshDb({
  pgUrl: values.db === 'postgres' ? values.pg : undefined,
  dataDir: join(folder, 'db'),
});
const { organizationId } = await seedOrganization(fresh.db, { wearers: alerts, withLatest: false });
// Wearers with alerts have an engine state already (the engine raised them).
await fresh.db.query(
  `INSERT INTO engine_state (wearer_id, state, version) SELECT id, '{}'::jsonb, 1 FROM users WHERE id LIKE 'bw-%'`,
);
const ctx = createContext(loadConfig({ LOG_LEVEL: 'silent' }), fresh.db);
const app = await buildApp(ctx, { serveWeb: false, logger: false });
const signIn = await app.inject({
  method: 'POST',
  url: '/v2/auth/signIn',
  payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD },
});
if (signIn.statusCode !== 200)
  throw new Error(`sign-in failed: ${signIn.statusCode} ${signIn.body}`);
const headers = { authorization: `Bearer ${signIn.json().accessToken}` };

const times = [];
// PGlite runs in this process: its CPU time is the request's cost, whatever else the machine runs.
const cpuTimes = [];
for (let run = 1; run <= runs; run++) {
  const type = TYPES[(run - 1) % TYPES.length];
  const closedEvery = closedShare > 0 ? Math.round(1 / closedShare) : 0;
  await fresh.db.query(
    `INSERT INTO alerts (id, organization_id, group_id, wearer_id, type, level, status, opened_at, closed_at, close_reason, cause, notify)
     SELECT 'bc-' || $3::int || '-' || i, $1, u.group_id, u.id, $4, $5,
            CASE WHEN $6::int > 0 AND i % $6::int = 0 THEN 'CLOSED' ELSE 'OPEN' END, now() - interval '10 minutes',
            CASE WHEN $6::int > 0 AND i % $6::int = 0 THEN now() - interval '5 minutes' END,
            CASE WHEN $6::int > 0 AND i % $6::int = 0 THEN 'recovered' END,
            '{"rule":"bench","values":{}}'::jsonb, true
       FROM generate_series(1, $2) i JOIN users u ON u.id = 'bw-' || i`,
    [organizationId, alerts, run, type, LEVELS[type], closedEvery],
  );
  const alertIds = Array.from({ length: alerts }, (_, i) => `bc-${run}-${i + 1}`);
  const load = loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/v2/alert/batchConfirm',
    headers,
    payload: { alertIds, reason: 'CHECKED_ON_SITE', note: 'bench' },
  });
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu0);
  const cpuMs = (used.user + used.system) / 1000;
  const confirmed =
    res.statusCode === 200 ? res.json().results.filter((r) => r.result === 'confirmed').length : 0;
  if (confirmed !== alerts)
    throw new Error(
      `run ${run}: ${res.statusCode}, ${confirmed} of ${alerts} confirmed: ${res.body.slice(0, 300)}`,
    );
  times.push(ms);
  cpuTimes.push(cpuMs);
  const closedNote = closedEvery ? `1 in ${closedEvery} already closed` : 'all open';
  console.log(
    `run ${run}: ${alerts} alerts (${type}, ${closedNote}) in ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms), load average ${load.toFixed(1)}`,
  );
}
console.log(
  `batchConfirm ${alerts} on ${values.db}: median ${Math.round(median(times))} ms, worst ${Math.round(Math.max(...times))} ms ` +
    `(target <= 1000 ms); CPU median ${Math.round(median(cpuTimes))} ms, worst ${Math.round(Math.max(...cpuTimes))} ms; ` +
    `load average ${loadavg()[0].toFixed(1)}`,
);
await app.close();
await fresh.db.close();
await fresh.drop();
await rm(folder, { recursive: true, force: true });
