// response-times: GET /v2/alert/responseTimes for an organisation with 100,000 alerts over the last 12 months (each
// with one or two notice attempts, sent and mostly delivered, most confirmed), as its owner (who sees everything: the
// costliest scope): five runs, each of 50 sequential requests mixing the whole organisation's 12 months, one group,
// this year and this month; server = the built app in a child process.
// Usage: npm run bench -- response-times [--alerts 100000] [--wearers 2000] [--runs 5] [--requests 50]
//        [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target: p95 <= 200 ms (issue 8, Speed). Prints each run's p95, their median and worst, and the load average.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  SERVER_MAIN,
  freePort,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
  requestRuns,
  timedGet,
} from '../foundation/_lib.mjs';
import { openFreshDb, percentiles, seedOrganization, signIn } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    alerts: { type: 'string', default: '100000' },
    wearers: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '5' },
    requests: { type: 'string', default: '50' },
    pg: { type: 'string' },
  },
});
const TARGET_P95 = 200;
requireBuild(SERVER_MAIN, 'the server');

const TYPES = [
  'SOS_CALL',
  'DETECT_FALL_DOWN',
  'HEART_RATE',
  'HEART_RATE_ANOMALY_SUSTAINED',
  'HEATSTROKE',
  'ADVANCED_HEATSTROKE_RISK',
  'ADVANCED_HEATSTROKE',
  'AWAKENING_ALERT',
  'DISCONNECTION',
  'NON_WEARING',
];
const LEVELS = {
  SOS_CALL: 'EMERGENCY',
  DETECT_FALL_DOWN: 'EMERGENCY',
  HEART_RATE: 'CAUTION',
  HEART_RATE_ANOMALY_SUSTAINED: 'CRITICAL',
  HEATSTROKE: 'CRITICAL',
  ADVANCED_HEATSTROKE_RISK: 'CAUTION',
  ADVANCED_HEATSTROKE: 'CRITICAL',
  AWAKENING_ALERT: 'CAUTION',
  DISCONNECTION: 'DEVICE_STATUS',
  NON_WEARING: 'DEVICE_STATUS',
};

/**
 * `alerts` closed alerts spread over the last 360 days on the wearers (types in turn), 9 in 10 confirmed within
 * 0-30 minutes; each has a first notice attempt sent 1-20 s after it was raised and delivered 2-60 s after, and
 * one in five a second attempt (escalation) two minutes later. The alert row holds its first notice sent and first
 * delivered (first_notice_at / first_delivery_at) as the product writes them with each attempt's outcome: the
 * earliest of its attempts' (checked below against the notifications).
 */
async function seedAlerts(db, organizationId, alerts, wearers) {
  const types = TYPES;
  const levels = types.map((t) => LEVELS[t]);
  await db.query(
    `INSERT INTO alerts (id, organization_id, group_id, wearer_id, type, level, status, opened_at, closed_at, close_reason,
                         confirmed_by, confirmed_at, cause, notify, first_notice_at, first_delivery_at, created_at)
     SELECT 'br-' || i, $1, u.group_id, u.id, ($3::text[])[1 + i % 10], ($4::text[])[1 + i % 10], 'CLOSED', t.opened,
            t.opened + interval '40 minutes', 'recovered',
            CASE WHEN i % 10 <> 0 THEN 'bench-owner' END,
            CASE WHEN i % 10 <> 0 THEN t.opened + ((i * 7919) % 1800 || ' seconds')::interval END,
            '{"rule":"bench","values":{}}'::jsonb, true,
            t.opened + ((1 + i % 20) || ' seconds')::interval,
            CASE WHEN i % 7 <> 0 THEN t.opened + ((2 + i % 60) || ' seconds')::interval END,
            t.opened
       FROM generate_series(1, $2) i
       JOIN users u ON u.id = 'bw-' || (1 + i % $5)
       CROSS JOIN LATERAL (SELECT now() - ((i * 311) % (360 * 86400) || ' seconds')::interval AS opened) t`,
    [organizationId, alerts, types, levels, wearers],
  );
  await db.query(
    `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status, text,
                                created_at, updated_at, sent_at, delivered_at)
     SELECT 'bn-' || a.n || '-' || s.step, $1, a.id, s.step, 'SMS', '+819012345678', 'embedded',
            CASE WHEN a.n % 7 = 0 THEN 'sent' ELSE 'delivered' END, 'bench',
            a.opened_at + ((1 + a.n % 20) || ' seconds')::interval + (s.step - 1) * interval '2 minutes',
            a.opened_at + ((1 + a.n % 20) || ' seconds')::interval + (s.step - 1) * interval '2 minutes',
            a.opened_at + ((1 + a.n % 20) || ' seconds')::interval + (s.step - 1) * interval '2 minutes',
            CASE WHEN a.n % 7 <> 0 THEN a.opened_at + ((2 + a.n % 60) || ' seconds')::interval + (s.step - 1) * interval '2 minutes' END
       FROM (SELECT id, opened_at, substr(id, 4)::int AS n FROM alerts WHERE organization_id = $1 AND id LIKE 'br-%') a
       JOIN generate_series(1, 2) s(step) ON s.step = 1 OR a.n % 5 = 0`,
    [organizationId],
  );
  const [{ n: astray }] = await db.query(
    `SELECT count(*)::int AS n FROM alerts a
       JOIN (SELECT alert_id, min(sent_at) AS sent_at, min(delivered_at) AS delivered_at FROM notifications GROUP BY alert_id) f
         ON f.alert_id = a.id
      WHERE a.organization_id = $1
        AND (a.first_notice_at IS DISTINCT FROM f.sent_at OR a.first_delivery_at IS DISTINCT FROM f.delivered_at)`,
    [organizationId],
  );
  if (astray !== 0)
    throw new Error(`${astray} alerts' first notice / delivery differ from their notifications'`);
  await db.query('ANALYZE');
}

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-response-times-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ pgUrl: values.pg, dataDir });
const wearers = Number(values.wearers);
const { organizationId } = await seedOrganization(fresh.db, { wearers, withLatest: false });
await seedAlerts(fresh.db, organizationId, Number(values.alerts), wearers);
const [{ n: seeded }] = await fresh.db.query(
  'SELECT count(*)::int AS n FROM alerts WHERE organization_id = $1',
  [organizationId],
);
const [{ n: attempts }] = await fresh.db.query(
  'SELECT count(*)::int AS n FROM notifications WHERE organization_id = $1',
  [organizationId],
);
await fresh.db.close();
console.log(`seeded ${seeded} alerts and ${attempts} notice attempts on ${wearers} wearers`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = serverEnv(port, dataDir, {
  SEED_DEMO: 'false',
  ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
});
const server = startServer(env);
// What /alert-histories asks: the organisation's last 12 months (the default), one group, a quarter, one month.
const thisMonth = new Date().toISOString().slice(0, 7);
const QUERIES = [
  `clientId=${organizationId}`,
  `clientId=${organizationId}&groupId=bg-3`,
  `clientId=${organizationId}&to=${thisMonth}&from=${thisMonth.slice(0, 4)}-01`,
  `clientId=${organizationId}&from=${thisMonth}&to=${thisMonth}`,
];
try {
  await waitForReady(baseUrl, server);
  const headers = { authorization: `Bearer ${await signIn(baseUrl)}` };
  const once = (query) => timedGet(`${baseUrl}/v2/alert/responseTimes?${query}`, headers);
  const first = (await once(QUERIES[0])).body;
  const total = first.rows.find((r) => r.month === null && r.type === null);
  console.log(
    `whole organisation ${first.from}..${first.to}: ${total.alerts} alerts, ${first.rows.length} rows; ` +
      `to notice median ${total.toNotice.medianSeconds} s, to delivery ${total.toDelivery.medianSeconds} s, to confirmation ${total.toConfirm.medianSeconds} s`,
  );
  for (let i = 0; i < 8; i++) await once(QUERIES[i % QUERIES.length]); // warm-up
  await requestRuns({
    runs: Number(values.runs),
    requests: Number(values.requests),
    queries: QUERIES,
    once,
    percentiles,
    pid: server.child.pid,
    label: values.pg ? 'PostgreSQL' : 'PGlite',
    target: TARGET_P95,
  });
  printMachine();
} finally {
  await stopServer(server);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
