// places: what deciding an alert's place costs (issue 17). The place is decided only when an EMERGENCY or
// CRITICAL alert opens, by one query inside the opening transaction over the wearer's stored sightings
// (apps/server/src/modules/places); an ordinary reading pays nothing for it. This measures that query and fold
// per opening on a realistic history: every wearer heard by two gateways with signal strengths every
// --every seconds for --hours hours, plus a phone position now and then.
// Usage: npm run bench -- places [--db pglite|postgres] [--wearers 200] [--hours 2] [--every 10] [--runs 5]
//        [--pg postgres://postgres@127.0.0.1:5432/postgres]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, median, printMachine, requireBuild } from '../foundation/_lib.mjs';
import { openFreshDb, seedOrganization } from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    wearers: { type: 'string', default: '200' },
    hours: { type: 'string', default: '2' },
    every: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const WEARERS = Number(values.wearers);
const HOURS = Number(values.hours);
const EVERY = Number(values.every);
const RUNS = Number(values.runs);

requireBuild(join(ROOT, 'apps/server/dist/modules/places/places.service.js'), 'the server');
const { placeAtOpening } = await import(
  pathToFileURL(join(ROOT, 'apps/server/dist/modules/places/places.service.js')).href
);

printMachine();
const dataDir = values.db === 'pglite' ? await mkdtemp(join(tmpdir(), 'bench-places-')) : undefined;
const { db, drop } = await openFreshDb({
  pgUrl: values.db === 'postgres' ? values.pg : undefined,
  dataDir,
});
try {
  const { organizationId } = await seedOrganization(db, { wearers: WEARERS, withLatest: false });
  await db.query(
    `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash)
     VALUES ('bgw-room-a', $1, 'STATIONARY', 'BGW-ROOM-A', '1階 食堂', 'x'),
            ('bgw-room-b', $1, 'STATIONARY', 'BGW-ROOM-B', '2階 居室', 'x'),
            ('bgw-phone', $1, 'SMARTPHONE', 'BGW-PHONE', 'スマートフォン', 'x')`,
    [organizationId],
  );
  const now = new Date();
  const seeded = Date.now();
  // Each wearer: a reading every EVERY s from each room's gateway, strengths drifting; a position every 5 min.
  await db.query(
    `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate, gateway_id, rssi)
     SELECT b.id, $2::timestamptz - make_interval(secs => s * $3) + make_interval(secs => gw.k),
            b.wearer_id, $1, 75, gw.id, (-50 - ((s + gw.k * 7) % 30))::smallint
       FROM bracelets b
       CROSS JOIN generate_series(0, ($4 * 3600 / $3)::int) s
       CROSS JOIN (VALUES ('bgw-room-a', 0), ('bgw-room-b', 1)) gw(id, k)
      WHERE b.organization_id = $1 AND b.wearer_id IS NOT NULL`,
    [organizationId, now.toISOString(), EVERY, HOURS],
  );
  await db.query(
    `INSERT INTO wearer_positions (wearer_id, at, organization_id, bracelet_id, gateway_id, latitude, longitude, accuracy)
     SELECT b.wearer_id, $2::timestamptz - make_interval(mins => m * 5), $1, b.id, 'bgw-phone', 35.68, 139.76, 15
       FROM bracelets b CROSS JOIN generate_series(1, ($3 * 12)::int) m
      WHERE b.organization_id = $1 AND b.wearer_id IS NOT NULL`,
    [organizationId, now.toISOString(), HOURS],
  );
  await db.query('ANALYZE');
  const [{ n }] = await db.query('SELECT count(*)::int AS n FROM readings');
  console.log(`seeded ${n} readings for ${WEARERS} wearers in ${Date.now() - seeded} ms`);

  const wearers = (
    await db.query(
      'SELECT wearer_id AS id FROM bracelets WHERE organization_id = $1 AND wearer_id IS NOT NULL',
      [organizationId],
    )
  ).map((r) => r.id);
  const perRun = [];
  const kinds = new Map();
  for (let run = 1; run <= RUNS; run++) {
    const times = [];
    for (const id of wearers) {
      const t0 = process.hrtime.bigint();
      const place = await placeAtOpening(db, id, now);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      kinds.set(place.kind, (kinds.get(place.kind) ?? 0) + 1);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const m = median(times);
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? NaN;
    perRun.push(m);
    console.log(
      `run ${run}: ${times.length} openings, median ${m.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms per opening`,
    );
  }
  console.log(
    `per opening: median of run medians ${median(perRun).toFixed(2)} ms, worst run median ${Math.max(...perRun).toFixed(2)} ms; places decided: ${JSON.stringify(Object.fromEntries(kinds))}`,
  );
} finally {
  await db.close?.();
  await drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
