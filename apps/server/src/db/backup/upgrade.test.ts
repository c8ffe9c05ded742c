import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freshPostgresDatabase,
  runCli,
  type SpawnedServer,
  spawnServer,
} from '../../testing/spawn-server.js';
import { openPglite, openPostgres, type Queryable } from '../client.js';

/**
 * An upgrade from the oldest release whose data this release migrates: `fixtures/v2026.11.28.tar.gz`
 * is a backup of the data folder of main at tag v2026.11.28 (c05ce94, schema 031), which seeded its
 * demo and ran its simulator for four minutes (readings, alerts, rollups). Restored with today's
 * CLI (PGlite, or into PostgreSQL), migrated to today's schema, the server starts on it and every
 * API read the console's pages make answers for the demo organisation's owner: no 5xx anywhere,
 * and the main pages' reads 200 with the old data in them. (docs/operations.md, "Upgrades".)
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const FIXTURE = join(import.meta.dirname, 'fixtures/v2026.11.28.tar.gz');
/** This release's last migration, from the migrations folder. */
const LAST_MIGRATION = readdirSync(join(import.meta.dirname, '../migrations'))
  .filter((f) => /^\d{3}_.+\.sql$/.test(f))
  .sort()
  .at(-1)!
  .slice(0, -4);
const OWNER = { email: 'org-owner@example.com', password: 'demo-pass-2026' };

interface OpenApi {
  paths: Record<
    string,
    Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>
  >;
}

async function pathValues(db: Queryable): Promise<Record<string, string>> {
  const one = async (sql: string) =>
    (await db.query<{ v: string }>(sql))[0]?.v ?? 'missing-in-fixture';
  const org = 'demo-org';
  return {
    id: org,
    clientId: org,
    organizationId: org,
    groupId: await one(
      `SELECT id AS v FROM groups WHERE organization_id = '${org}' ORDER BY id LIMIT 1`,
    ),
    uid: await one(
      `SELECT wearer_id AS v FROM bracelets WHERE organization_id = '${org}' AND wearer_id IS NOT NULL ORDER BY wearer_id LIMIT 1`,
    ),
    gatewayId: await one(
      `SELECT id AS v FROM gateways WHERE organization_id = '${org}' ORDER BY id LIMIT 1`,
    ),
    alertId: await one(
      `SELECT id::text AS v FROM alerts WHERE organization_id = '${org}' ORDER BY id LIMIT 1`,
    ),
    userId: await one(`SELECT id AS v FROM users WHERE email = 'org-general@example.com'`),
  };
}

/** Every GET the API declares whose path this fixture can fill (and no required query). */
async function everyRead(server: SpawnedServer, values: Record<string, string>) {
  const doc = (await (await fetch(`${server.baseUrl}/v2/openapi.json`)).json()) as OpenApi;
  const signIn = await fetch(`${server.baseUrl}/v2/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  expect(signIn.status).toBe(200);
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const answers = new Map<string, number>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    const get = methods.get;
    if (!get || path === '/v3/live') continue;
    if (get.parameters?.some((p) => p.in === 'query' && p.required)) continue;
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (names.some((n) => !(n in values))) continue;
    const url = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n]!));
    const res = await fetch(`${server.baseUrl}${url}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await res.arrayBuffer();
    answers.set(path, res.status);
  }
  return { answers, accessToken };
}

describe('an upgrade from v2026.11.28 (schema 031)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-upgrade-'));
  const servers: SpawnedServer[] = [];
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores, migrates, and the console reads every page of the demo from it', async () => {
    const dataDir = join(dir, 'db');
    let env: Record<string, string> = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
    if (postgres) {
      fresh = await freshPostgresDatabase('upgrade');
      env = { ...env, DATABASE_URL: fresh.url, WORKERS: '1' };
    }
    const restored = await runCli(['restore', '--in', FIXTURE], env);
    expect(restored.code, restored.output).toBe(0);
    if (!postgres)
      expect(restored.output).toMatch(new RegExp(`then migrated \\(033_.*${LAST_MIGRATION}\\)`));

    const db = postgres ? await openPostgres(fresh!.url, 1) : await openPglite(dataDir);
    let values: Record<string, string>;
    try {
      const [last] = await db.query<{ v: string }>(
        'SELECT max(version) AS v FROM schema_migrations',
      );
      expect(last?.v).toBe(LAST_MIGRATION);
      values = await pathValues(db);
    } finally {
      await db.close();
    }
    expect(Object.values(values)).not.toContain('missing-in-fixture');

    const server = await spawnServer(env, join(dir, 'server.log'));
    servers.push(server);
    await server.ready();
    const { answers, accessToken } = await everyRead(server, values);
    const errors = [...answers].filter(([, status]) => status >= 500);
    expect(errors).toEqual([]);
    for (const page of [
      '/v2/user/device/list',
      '/v2/alert/list',
      '/v2/client/{clientId}/groups',
      '/v2/user/{uid}',
      '/v3/device/summary',
    ])
      expect({ page, status: answers.get(page) }).toEqual({ page, status: 200 });
    // The wearer page's chart: the old release's readings come back.
    const history = await fetch(
      `${server.baseUrl}/v3/device/history?uid=${values.uid}&from=${encodeURIComponent(new Date(Date.now() - 30 * 86400_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`,
      { headers: { authorization: `Bearer ${accessToken}` } },
    );
    expect(history.status).toBe(200);
    expect(JSON.stringify(await history.json())).toMatch(/heartRate/);
    expect([...answers.values()].filter((s) => s === 200).length).toBeGreaterThan(30);
  }, 240_000);
});
