// Seeds one organisation of N wearers (bracelets, gateways, latest readings, open alerts) and an owner who signs
// in with a password, straight through SQL on the server's own Db (dist build). Shared by summary and alert-latency.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ROOT } from '../foundation/_lib.mjs';

const dist = (p) => import(pathToFileURL(join(ROOT, 'apps/server/dist', p)).href);

export const OWNER_EMAIL = 'bench-owner@example.test';
export const OWNER_PASSWORD = 'bench-pass-2026';
export const gatewayCredential = (i) => `bench-credential-${i}`;

/** A fresh database: a PGlite folder, or a new PostgreSQL database on the server of `pgUrl`. */
export async function openFreshDb({ pgUrl, dataDir }) {
  const { openDb } = await dist('db/client.js');
  const { migrate } = await dist('db/migrate.js');
  let databaseUrl;
  let drop = async () => {};
  if (pgUrl) {
    const name = `bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const db = await openDb({ databaseUrl, dataDir });
  await migrate(db);
  return { db, databaseUrl, drop };
}

/**
 * One organisation, `groups` groups, `wearers` wearers each with a bracelet (duty cycle 1) and latest values;
 * one gateway per 100 wearers; `openAlerts` open alerts on distinct wearers.
 */
export async function seedOrganization(
  db,
  { wearers, openAlerts = 0, groups = 20, withLatest = true, offlineInSeconds },
) {
  const { hashPassword } = await dist('modules/auth/password.js');
  const org = 'org-bench';
  await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'ベンチ組織')`, [org]);
  await db.query(
    `INSERT INTO groups (id, organization_id, name) SELECT 'bg-' || g, $1, 'グループ ' || g FROM generate_series(1, $2) g`,
    [org, groups],
  );
  await db.query(
    `INSERT INTO users (id, organization_id, role, name, email, email_verified, password_hash)
     VALUES ('bench-owner', $1, 'ORGANIZATION_OWNER', 'ベンチ 管理者', $2, true, $3)`,
    [org, OWNER_EMAIL, await hashPassword(OWNER_PASSWORD)],
  );
  await db.query(
    `INSERT INTO terms_agreements (user_id, version) SELECT 'bench-owner', v FROM (VALUES ('2026-04-01')) t(v)`,
  );
  const gateways = Math.ceil(wearers / 100);
  for (let i = 1; i <= gateways; i++) {
    await db.query(
      `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash)
       VALUES ($1, $2, 'STATIONARY', $3, $4, $5)`,
      [
        `bgw-${i}`,
        org,
        `BGW-${i}`,
        `Gateway ${i}`,
        createHash('sha256').update(gatewayCredential(i)).digest('hex'),
      ],
    );
  }
  await db.query(
    `INSERT INTO users (id, organization_id, role, name, group_id, birth_date)
     SELECT 'bw-' || i, $1, NULL, '装着者 ' || lpad(i::text, 5, '0'), 'bg-' || (1 + i % $3), DATE '1980-01-01' + (i % 9000)
       FROM generate_series(1, $2) i`,
    [org, wearers, groups],
  );
  await db.query(
    `INSERT INTO bracelets (id, organization_id, serial_number, device_name, wearer_id, gateway_id, battery)
     SELECT 'bb-' || i, $1, 'BBR-' || i, 'Bracelet ' || i, 'bw-' || i, 'bgw-' || (1 + (i - 1) / 100), 90
       FROM generate_series(1, $2) i`,
    [org, wearers],
  );
  if (withLatest) {
    await db.query(
      `INSERT INTO wearer_latest (wearer_id, organization_id, bracelet_id, heart_rate, heart_rate_at, skin_temperature,
                                  worn, battery, last_seen_at)
       SELECT 'bw-' || i, $1, 'bb-' || i, 60 + i % 60, now(), 32 + (i % 30) / 10.0, i % 17 <> 0, 20 + i % 80,
              now() - ((i % 40) || ' minutes')::interval
         FROM generate_series(1, $2) i`,
      [org, wearers],
    );
    // Every wearer's window (10 minutes past the last reading) ends in this many seconds, at the
    // same moment: a site whose gateway went quiet.
    if (offlineInSeconds !== undefined)
      await db.query(
        `UPDATE wearer_latest SET last_seen_at = now() - interval '10 minutes' + $1 * interval '1 second'`,
        [offlineInSeconds],
      );
  }
  if (openAlerts > 0) {
    const step = Math.max(1, Math.floor(wearers / openAlerts));
    await db.query(
      `INSERT INTO alerts (id, organization_id, group_id, wearer_id, type, level, status, opened_at, cause, notify)
       SELECT 'ba-' || n, $1, 'bg-' || (1 + (n * $3) % $4), 'bw-' || (n * $3), 'HEART_RATE', 'CAUTION', 'OPEN',
              now() - (n || ' seconds')::interval, '{"rule":"bench","values":{}}'::jsonb, true
         FROM generate_series(1, $2) n`,
      [org, openAlerts, step, groups],
    );
  }
  // A live database has planner statistics (autovacuum on PostgreSQL, the server's ANALYZE job on PGlite).
  await db.query('ANALYZE');
  return { organizationId: org, gateways };
}

/** Signs the seeded owner in through the API. */
export async function signIn(baseUrl) {
  const res = await fetch(`${baseUrl}/v2/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OWNER_EMAIL, password: OWNER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()).accessToken;
}

/** p50/p95/p99 of a list of milliseconds. */
export function percentiles(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  const r = (v) => Math.round(v * 10) / 10;
  return {
    n: s.length,
    p50: r(at(0.5)),
    p95: r(at(0.95)),
    p99: r(at(0.99)),
    max: r(s[s.length - 1] ?? NaN),
  };
}
