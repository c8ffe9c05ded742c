// fleet: /groups data (GET /v2/client/{id}/groups) and the organisation overview (GET /v2/client/{id}/overview) for an
// organisation of 10,000 wearers, 500 gateways and 50 groups (200 open alerts), as its owner: five runs, each of 100
// sequential requests alternating the two; server = the built app in a child process.
// Usage: npm run bench -- fleet [--wearers 10000] [--gateways 500] [--groups 50] [--runs 5] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target: p95 <= 100 ms. Prints each run's p95 per endpoint, their median and worst, and the load average.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  SERVER_MAIN,
  cpuMs,
  freePort,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
  p95Verdict,
  timedGet,
} from '../foundation/_lib.mjs';
import { openFreshDb, percentiles, seedOrganization, signIn } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    wearers: { type: 'string', default: '10000' },
    gateways: { type: 'string', default: '500' },
    groups: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    requests: { type: 'string', default: '100' },
    pg: { type: 'string' },
  },
});
const TARGET_P95 = 100;
requireBuild(SERVER_MAIN, 'the server');

/** seedOrganization makes one gateway per 100 wearers in no group: the rest, and every gateway in a group. */
async function seedGateways(db, organizationId, existing, total, groups) {
  await db.query(
    `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash, last_seen_at)
     SELECT 'bgw-' || i, $1, CASE WHEN i % 5 = 0 THEN 'SMARTPHONE' ELSE 'STATIONARY' END, 'BGW-' || i, 'Gateway ' || i,
            $4, now() - ((i % 20) || ' minutes')::interval
       FROM generate_series($2::int + 1, $3::int) i`,
    [organizationId, existing, total, createHash('sha256').update('unused').digest('hex')],
  );
  await db.query(
    `UPDATE gateways SET group_id = 'bg-' || (1 + (substr(id, 5)::int % $2)) WHERE organization_id = $1`,
    [organizationId, groups],
  );
  await db.query('ANALYZE');
}

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-fleet-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ pgUrl: values.pg, dataDir });
const groups = Number(values.groups);
const { organizationId, gateways } = await seedOrganization(fresh.db, {
  wearers: Number(values.wearers),
  groups,
  openAlerts: 200,
});
await seedGateways(fresh.db, organizationId, gateways, Number(values.gateways), groups);
await fresh.db.close();
console.log(`seeded ${values.wearers} wearers, ${values.gateways} gateways, ${groups} groups`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = serverEnv(port, dataDir, {
  SEED_DEMO: 'false',
  ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
});
const server = startServer(env);
const PATHS = [`/v2/client/${organizationId}/groups`, `/v2/client/${organizationId}/overview`];
try {
  await waitForReady(baseUrl, server);
  const headers = { authorization: `Bearer ${await signIn(baseUrl)}` };
  const once = (path) => timedGet(`${baseUrl}${path}`, headers);
  const overview = (await once(PATHS[1])).body;
  const list = (await once(PATHS[0])).body;
  console.log(
    `overview: ${overview.groups.length} groups, ${overview.gateways.length} gateways, ${overview.wearerCount} wearers, ${overview.openAlertCount} open alerts; /groups: ${list.groups.length} groups`,
  );
  for (let i = 0; i < 10; i++) await once(PATHS[i % 2]); // warm-up
  const runs = { groups: [], overview: [] };
  for (let run = 0; run < Number(values.runs); run++) {
    const ms = { groups: [], overview: [] };
    const cpu0 = cpuMs(server.child.pid);
    for (let i = 0; i < Number(values.requests); i++)
      ms[i % 2 ? 'overview' : 'groups'].push((await once(PATHS[i % 2])).ms);
    const cpu1 = cpuMs(server.child.pid);
    const cpu =
      cpu0 === null || cpu1 === null
        ? 'n/a'
        : `${((cpu1 - cpu0) / Number(values.requests)).toFixed(1)} ms`;
    const g = percentiles(ms.groups);
    const o = percentiles(ms.overview);
    runs.groups.push(g);
    runs.overview.push(o);
    console.log(
      `run ${run + 1}: groups p50 ${g.p50} p95 ${g.p95} ms; overview p50 ${o.p50} p95 ${o.p95} ms; server CPU ${cpu}/request, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
  for (const [name, list] of Object.entries(runs))
    console.log(p95Verdict(`${values.pg ? 'PostgreSQL' : 'PGlite'} ${name}`, list, TARGET_P95));
  printMachine();
} finally {
  await stopServer(server);
  await fresh.drop();
  await rm(folder, { recursive: true, force: true });
}
