// members: GET /v2/user/organization/members for an organisation of 10,000 wearers and 500 staff (50 group
// managers, 30 pending invitations), as its owner: five runs, each of 100 sequential requests mixing the first
// page, a deep page and searches by name and address; server = the built app in a child process.
// Usage: npm run bench -- members [--wearers 10000] [--staff 500] [--runs 5] [--pg postgres://postgres@127.0.0.1:5432/postgres]
// Target: p95 <= 100 ms. Prints each run's p95, their median and worst, and the load average.
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
    wearers: { type: 'string', default: '10000' },
    staff: { type: 'string', default: '500' },
    runs: { type: 'string', default: '5' },
    requests: { type: 'string', default: '100' },
    pg: { type: 'string' },
  },
});
const TARGET_P95 = 100;
requireBuild(SERVER_MAIN, 'the server');

/** The owner of seedOrganization is one staff member; the others, some group managers, and pending invitations. */
async function seedStaff(db, organizationId, staff) {
  await db.query(
    `INSERT INTO users (id, organization_id, role, name, email, email_verified)
     SELECT 'bs-' || i, $1,
            CASE i % 10 WHEN 0 THEN 'ORGANIZATION_OWNER' WHEN 1 THEN 'ORGANIZATION_GROUP' ELSE 'ORGANIZATION_GENERAL' END,
            'スタッフ ' || lpad(i::text, 4, '0'), 'staff-' || i || '@bench.example.test', true
       FROM generate_series(1, $2) i`,
    [organizationId, staff - 1],
  );
  await db.query(
    `INSERT INTO group_managers (group_id, user_id)
     SELECT 'bg-' || (1 + i % 20), 'bs-' || i FROM generate_series(1, $1) i WHERE i % 10 = 1`,
    [staff - 1],
  );
  await db.query(
    `INSERT INTO invitations (id, email, role, organization_id, invited_by, token_hash, expires_at, created_at)
     SELECT 'bi-' || i, 'invitee-' || i || '@bench.example.test', 'ORGANIZATION_GENERAL', $1, 'bench-owner',
            md5('bench-' || i) || md5('token-' || i), now() + interval '7 days', now()
       FROM generate_series(1, 30) i`,
    [organizationId],
  );
  await db.query('ANALYZE');
}

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-members-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ pgUrl: values.pg, dataDir });
const { organizationId } = await seedOrganization(fresh.db, {
  wearers: Number(values.wearers),
  withLatest: false,
});
await seedStaff(fresh.db, organizationId, Number(values.staff));
await fresh.db.close();
console.log(`seeded ${values.wearers} wearers and ${values.staff} staff`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = serverEnv(port, dataDir, {
  SEED_DEMO: 'false',
  ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
});
const server = startServer(env);
// What /settings/admins asks: the first page, paging on, a search by name, by address, with no match.
const QUERIES = [
  '',
  '?page=5',
  '?q=' + encodeURIComponent('スタッフ 01'),
  '?q=staff-42',
  '?q=nobody-here',
  '?page=2&pageSize=100',
];
try {
  await waitForReady(baseUrl, server);
  const headers = { authorization: `Bearer ${await signIn(baseUrl)}` };
  const once = (query) => timedGet(`${baseUrl}/v2/user/organization/members${query}`, headers);
  const first = (await once('')).body;
  console.log(
    `first page: ${first.members.length} of ${first.total} staff, ${first.invitations.length} pending invitations`,
  );
  for (let i = 0; i < 10; i++) await once(QUERIES[i % QUERIES.length]); // warm-up
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
