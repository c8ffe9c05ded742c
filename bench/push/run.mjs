// push: alert -> Web Push delivery (issue 38 item 1). A real server on a fresh database; its owner subscribes a
// "browser" (the push service faked on 127.0.0.1, apps/server/src/testing/fake-push-service.ts: it checks the
// VAPID JWT and decrypts the RFC 8291 body, as a push service and the browser would) and is every group's PUSH
// recipient for SOS; then --runs SOS events, one after the other, each from another wearer through the gateway
// endpoint. Figure: the time from the gateway's send to the fake push service's receipt of the decrypted
// notice, median and worst, with the machine and its load.
// Usage: npm run bench -- push [--runs 5] [--db pglite|postgres] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target: worst <= 1000 ms (the SMS path's own budget in bench/alert-latency).
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
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
import { gatewayCredential, openFreshDb, seedOrganization, signIn } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    db: { type: 'string', default: 'pglite' },
    pg: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const PG_URL =
  values.db === 'postgres'
    ? (values.pg ?? 'postgres://postgres@127.0.0.1:5432/postgres')
    : undefined;
requireBuild(SERVER_MAIN, 'the server');
register();
const { startFakePushService } = await import('../../apps/server/src/testing/fake-push-service.ts');

printMachine();
const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-push-'));
const dataDir = join(folder, 'db');
const fake = await startFakePushService();
const fresh = await openFreshDb({ pgUrl: PG_URL, dataDir });
await seedOrganization(fresh.db, { wearers: RUNS, groups: 1, withLatest: false });
const schedule = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { enabled: true, startTime: '00:00', endTime: '23:59' },
  ]),
);
await fresh.db.query(
  `INSERT INTO group_alert_notice_settings (id, organization_id, group_id, user_id, channel, alert_types, schedule, step, position)
   VALUES ('bench-push', 'org-bench', 'bg-1', 'bench-owner', 'PUSH', '["SOS_CALL"]'::jsonb, $1::jsonb, 1, 0)`,
  [JSON.stringify(schedule)],
);
await fresh.db.close();

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startServer(
  serverEnv(port, dataDir, {
    SEED_DEMO: 'false',
    PUSH_ALLOW_PRIVATE: 'true',
    ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
  }),
);
const latencies = [];
try {
  await waitForReady(baseUrl, server);
  const token = await signIn(baseUrl);
  const sub = await fetch(`${baseUrl}/v2/user/push/subscriptions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
    },
    body: JSON.stringify(fake.subscription()),
  });
  if (!sub.ok) throw new Error(`subscribe: ${sub.status} ${await sub.text()}`);
  const load = loadavg().map((l) => l.toFixed(2));
  for (let run = 1; run <= RUNS; run++) {
    const before = fake.received.length;
    const sent = performance.now();
    const res = await fetch(`${baseUrl}/gateway/v1/batches`, {
      method: 'POST',
      headers: {
        authorization: `Gateway bgw-1:${gatewayCredential(1)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        events: [{ serialNumber: `BBR-${run}`, type: 'SOS', at: new Date().toISOString() }],
      }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`batch: ${res.status}`);
    await fake.waitFor(before + 1, 30_000);
    const got = fake.received[before];
    const notice = JSON.parse(got.plaintext);
    if (!notice.title.includes('装着者')) throw new Error(`unexpected notice: ${got.plaintext}`);
    latencies.push(got.at - sent);
    console.log(
      `run ${run}: SOS -> push received ${(got.at - sent).toFixed(1)} ms (${notice.title})`,
    );
  }
  const worst = Math.max(...latencies);
  console.log(
    `\npush (${values.db}): median ${median(latencies).toFixed(1)} ms, worst ${worst.toFixed(1)} ms over ${RUNS} runs; ` +
      `load average before ${load.join(' ')}, after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(worst <= 1000 ? 'PASS worst <= 1000 ms' : 'FAIL worst > 1000 ms');
} finally {
  await stopServer(server);
  await fake.close();
  if (fresh.drop) await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
