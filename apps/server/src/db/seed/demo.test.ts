import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { seedOnStart } from '../../cli/identity-commands.js';
import { loadConfig } from '../../config.js';
import { createContext } from '../../context.js';
import { openTestDb } from '../../testing/test-db.js';
import { type Db, openPostgres } from '../client.js';
import { migrate } from '../migrate.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-data.js';
import { removeDemo } from './demo-remove.js';
import { seedDemo } from './demo.js';
import { readPlanImage } from '../../modules/sites/site-plan-image.js';
import { DEMO_PLAN_HEIGHT, DEMO_PLAN_OFFICE, DEMO_PLAN_WIDTH } from './demo-plan.js';

/**
 * Seeding needs an empty database: a fresh PGlite copy, or on PostgreSQL a database of its
 * own created for this file (the shared test database holds other files' organisations).
 */
let db: Db;
let app: FastifyInstance;
let ctx: ReturnType<typeof createContext>;
let dropDatabase = async () => {};

async function openEmptyDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openTestDb();
  const name = `seed_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  const fresh = await openPostgres(url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`), 2);
  await migrate(fresh);
  return fresh;
}

beforeAll(async () => {
  db = await openEmptyDb();
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', SIMULATOR: 'false' }),
    authSecret: 'seed-test-secret-seed-test-secret-0123',
  };
  ctx = createContext(config, db);
  app = await buildApp(ctx, { serveWeb: false, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
  await dropDatabase();
});

const count = async (sql: string, params: unknown[] = []) =>
  (await db.query<{ n: number }>(sql, params))[0]!.n;

describe('demo scope before any demo organisation exists', () => {
  it('answers 404 DEMO_NOT_AVAILABLE', async () => {
    const res = await app.inject({ url: '/demo-api/v2/user' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('DEMO_NOT_AVAILABLE');
  });

  it('start does not seed when SEED_DEMO is off', async () => {
    await seedOnStart(db, false, () => undefined);
    expect(await count('SELECT count(*)::int AS n FROM organizations')).toBe(0);
  });
});

describe('demo dataset', () => {
  beforeAll(async () => {
    const logs: string[] = [];
    await seedOnStart(db, true, (m) => logs.push(m));
    expect(logs).toHaveLength(1);
  });

  it('gives every demo group notice recipients (emergencies by phone first, then SMS), its bracelets paired', async () => {
    const groups = await db.query<{ id: string; steps: string }>(
      `SELECT g.id, string_agg(s.channel || ':' || s.step, ',' ORDER BY s.step) AS steps
         FROM groups g LEFT JOIN group_alert_notice_settings s ON s.group_id = g.id GROUP BY g.id ORDER BY g.id`,
    );
    expect(groups).toEqual([
      { id: 'demo-group-1', steps: 'PHONE_CALL:1,SMS:2' },
      { id: 'demo-group-2', steps: 'PHONE_CALL:1,SMS:2' },
      { id: 'sakura-group-1', steps: 'SMS:1' },
    ]);
    const unpaired = await db.query('SELECT id FROM bracelets WHERE paired_at IS NULL');
    expect(unpaired).toEqual([]);
  });

  it('has the two organisations with their groups, gateways, wearers and bracelets', async () => {
    const orgs = await db.query<{
      name: string;
      is_demo: boolean;
      groups: number;
      gateways: number;
      wearers: number;
    }>(
      `SELECT o.name, o.is_demo,
              (SELECT count(*)::int FROM groups g WHERE g.organization_id = o.id) AS groups,
              (SELECT count(*)::int FROM gateways g WHERE g.organization_id = o.id) AS gateways,
              (SELECT count(*)::int FROM users u JOIN bracelets b ON b.wearer_id = u.id
                WHERE u.organization_id = o.id AND (u.role IS NULL OR u.role = 'PERSONAL_SELF')) AS wearers
         FROM organizations o ORDER BY o.is_demo DESC`,
    );
    expect(orgs).toEqual([
      { name: 'デモ建設株式会社', is_demo: true, groups: 2, gateways: 2, wearers: 20 },
      { name: 'さくら介護ホーム', is_demo: false, groups: 1, gateways: 1, wearers: 3 },
    ]);
    const serials = await db.query<{ serial_number: string }>(
      "SELECT serial_number FROM bracelets WHERE serial_number LIKE 'DEMO-BR-%' ORDER BY 1",
    );
    expect(serials.map((s) => s.serial_number)).toEqual(
      Array.from({ length: 20 }, (_, i) => `DEMO-BR-${String(i + 1).padStart(3, '0')}`),
    );
    const ages = await db.query<{ age: number }>(
      `SELECT date_part('year', age(date '2026-11-21', birth_date))::int AS age FROM users
        WHERE organization_id = 'demo-org' AND birth_date IS NOT NULL`,
    );
    expect(ages).toHaveLength(20);
    for (const { age } of ages) {
      expect(age).toBeGreaterThanOrEqual(20);
      expect(age).toBeLessThanOrEqual(65);
    }
    const gateways = await db.query<{ id: string; type: string; credential_hash: string }>(
      "SELECT id, type, credential_hash FROM gateways WHERE organization_id = 'demo-org' ORDER BY id",
    );
    expect(gateways).toEqual([
      {
        id: 'demo-gateway-1',
        type: 'STATIONARY',
        credential_hash: createHash('sha256').update('demo-gateway-secret-1').digest('hex'),
      },
      {
        id: 'demo-gateway-2',
        type: 'SMARTPHONE',
        credential_hash: createHash('sha256').update('demo-gateway-secret-2').digest('hex'),
      },
    ]);
  });

  it('seeding again does nothing', async () => {
    const before = await count('SELECT count(*)::int AS n FROM users');
    expect((await seedDemo(db)).seeded).toBe(false);
    await seedOnStart(db, true, () => undefined);
    expect(await count('SELECT count(*)::int AS n FROM users')).toBe(before);
    expect(await count('SELECT count(*)::int AS n FROM organizations')).toBe(2);
  });

  it.each(DEMO_ACCOUNTS.map((a) => [a.email, a] as const))(
    '%s signs in with the demo password',
    async (email, account) => {
      const res = await app.inject({
        method: 'POST',
        url: '/v2/auth/signIn',
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const user = await app.inject({
        url: '/v2/user',
        headers: { authorization: `Bearer ${res.json().accessToken}` },
      });
      expect(user.json()).toMatchObject({
        role: account.role,
        mail: email,
        agreedTermsOfUse: email !== 'new-member@example.com',
        mediromOrganizationId: account.organizationId,
      });
      if (account.role === 'PERSONAL') expect(user.json().devices).toHaveLength(2);
      if (account.role === 'PERSONAL_SELF') expect(user.json().gatewayId).toBe('demo-gateway-2');
    },
  );
});

describe('demo scope', () => {
  it('GET works without a token, as the demo organisation’s owner who has agreed to the terms', async () => {
    const user = await app.inject({ url: '/demo-api/v2/user' });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({
      role: 'ORGANIZATION_OWNER',
      // The public demo never shows a real contact (demo-mask.ts).
      mail: 'o***@***.com',
      agreedTermsOfUse: true,
      mediromOrganizationId: 'demo-org',
    });
    const list = await app.inject({ url: '/demo-api/v2/user/device/list' });
    expect(list.json().devices).toHaveLength(20);
    const clients = await app.inject({ url: '/demo-api/v2/client' });
    expect(clients.json<{ clients: { id: string }[] }>().clients.map((c) => c.id)).toEqual([
      'demo-org',
    ]);
    expect((await app.inject({ url: '/demo-api/v2/client/sakura-org' })).statusCode).toBe(404);
  });

  it('has a site plan with its first site office placed, a PNG the upload check takes (issue 36)', async () => {
    const sites = await app.inject({ url: '/demo-api/v2/organization/demo-org/sites' });
    expect(sites.statusCode).toBe(200);
    const body = sites.json<{
      sites: { id: string; name: string; plan: { format: string; width: number } | null }[];
      gateways: { gatewayId: string; name: string; plan: { siteId: string; x: number } | null }[];
    }>();
    expect(body.sites).toEqual([
      expect.objectContaining({
        id: 'demo-site-1',
        name: '第一現場',
        plan: expect.objectContaining({ format: 'png', width: DEMO_PLAN_WIDTH }),
      }),
    ]);
    expect(body.gateways.find((g) => g.gatewayId === 'demo-gateway-1')).toMatchObject({
      name: '詰所',
      plan: { siteId: 'demo-site-1', x: DEMO_PLAN_OFFICE.x },
    });
    const plan = await app.inject({ url: '/demo-api/v2/site/demo-site-1/plan' });
    expect(plan.statusCode).toBe(200);
    expect(plan.headers['content-type']).toBe('image/png');
    expect(readPlanImage(plan.rawPayload)).toEqual({
      ok: true,
      format: 'png',
      width: DEMO_PLAN_WIDTH,
      height: DEMO_PLAN_HEIGHT,
    });
  });

  it('never shows a real contact: staff e-mails and phone numbers are masked', async () => {
    const members = await app.inject({
      url: '/demo-api/v2/user/organization/members?clientId=demo-org',
    });
    expect(members.statusCode).toBe(200);
    const mails = members.json<{ members: { mail: string | null }[] }>().members.map((m) => m.mail);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) if (mail !== null) expect(mail).toMatch(/^.\*\*\*@\*\*\*\.[a-z]+$/);
    // Signed in, the same list shows the addresses.
    expect(JSON.stringify(members.json())).not.toContain('@example.com');
  });

  it('refuses every write of the API, whatever the route', async () => {
    const spec = (await app.inject({ url: '/v2/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const writes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => !['get', 'head', 'options'].includes(m))
        .map((m) => [m.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const),
    );
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (const [method, path] of writes) {
      if (!/^\/v[23]\//.test(path)) continue;
      const res = await app.inject({ method, url: `/demo-api${path}`, payload: {} });
      expect(`${method} ${path} ${res.statusCode} ${res.json().code}`).toBe(
        `${method} ${path} 403 DEMO_READ_ONLY`,
      );
      expect(res.json().message).toBe('The demo is read-only');
    }
    const signIn = await app.inject({
      method: 'POST',
      url: '/demo-api/v2/auth/signIn',
      payload: { email: 'org-owner@example.com', password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode).toBe(403);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM terms_agreements WHERE user_id = 'demo-new-member'",
      ),
    ).toBe(0);
  });

  it('serves /v3 routes too', async () => {
    const spec = (await app.inject({ url: '/v2/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    // Any plain /v3 GET but the live stream (it never ends).
    const v3Get = Object.keys(spec.paths).find(
      (p) =>
        p.startsWith('/v3/') && 'get' in spec.paths[p]! && !p.includes('{') && !p.includes('live'),
    );
    if (!v3Get) return;
    const res = await app.inject({ url: `/demo-api${v3Get}` });
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).not.toBe(403);
  });

  it('only /demo-api/v2 and /v3 are the demo scope', async () => {
    expect((await app.inject({ url: '/demo-api/v4/user' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/demo-api/v2user' })).statusCode).toBe(404);
  });
});

describe('the demo is usable from this machine only (DEMO_PUBLIC=false, the default)', () => {
  const signInFrom = (remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      payload: { email: 'all-owner@example.com', password: DEMO_PASSWORD },
      remoteAddress,
    });
  const batchFrom = (remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: 'Gateway demo-gateway-1:demo-gateway-secret-1' },
      payload: {
        events: [{ serialNumber: 'DEMO-BR-002', at: new Date().toISOString(), type: 'SOS' }],
      },
      remoteAddress,
    });

  it('a demo account signs in from loopback, not from another machine, and is told why', async () => {
    expect((await signInFrom('127.0.0.1')).statusCode).toBe(200);
    expect((await signInFrom('::1')).statusCode).toBe(200);
    const remote = await signInFrom('192.0.2.10');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ code: 'DEMO_SIGN_IN_LOCAL_ONLY' });
    expect(remote.json<{ message: string }>().message).toMatch(/DEMO_PUBLIC=true/);
  });

  it('the published demo gateway secret puts no SOS into /demo from another machine', async () => {
    const remote = await batchFrom('192.0.2.11');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ code: 'DEMO_GATEWAY_LOCAL_ONLY' });
    expect((await batchFrom('127.0.0.1')).statusCode).toBe(200);
  });
});

/**
 * Issue 35 item 3: the first start seeds a platform owner with a published password, and nothing
 * could remove it. `npm run cli -- demo remove` deletes the demo organisations with everything in
 * them and the demo accounts, keeps every other organisation, and the next start seeds nothing.
 */
describe('demo remove (last: it empties the demo the tests above read)', () => {
  it('leaves no row of the demo in any table, keeps the customer, and is not seeded again', async () => {
    const now = new Date();
    const reading = await app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: 'Gateway demo-gateway-1:demo-gateway-secret-1' },
      payload: {
        readings: [{ serialNumber: 'DEMO-BR-001', at: now.toISOString(), heartRate: 72 }],
      },
    });
    expect(reading.statusCode).toBe(200);
    // The latest values are written by the rollup flush: a server stopped for `demo remove` has flushed.
    await ctx.rollups.flush();
    await db.query(
      "INSERT INTO organizations (id, name, is_demo, time_zone) VALUES ('customer-org', 'お客様', false, 'Asia/Tokyo')",
    );
    const demoRows = async () => {
      const tables = await db.query<{ table: string }>(
        `SELECT table_name AS table FROM information_schema.columns
          WHERE column_name = 'organization_id' AND table_schema = current_schema()`,
      );
      const left: string[] = [];
      for (const { table } of tables) {
        const n = await count(
          `SELECT count(*)::int AS n FROM "${table}" WHERE organization_id IN ('demo-org', 'sakura-org')`,
        );
        if (n > 0) left.push(`${table}: ${n}`);
      }
      return left;
    };
    expect((await demoRows()).length).toBeGreaterThan(0);

    // From the console (DELETE /v2/demo): a demo account sees the ribbon's status; only a platform
    // owner removes it, with the same removal as the CLI (removeDemo).
    const tokenOf = async (email: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/v2/auth/signIn',
          payload: { email, password: DEMO_PASSWORD },
        })
      ).json<{ accessToken: string }>().accessToken;
    const platformOwner = { authorization: `Bearer ${await tokenOf('all-owner@example.com')}` };
    const orgOwner = { authorization: `Bearer ${await tokenOf('org-owner@example.com')}` };
    const status = await app.inject({ url: '/v2/demo', headers: orgOwner });
    expect(status.json()).toEqual({ present: true, signedInAsDemo: true });
    const refused = await app.inject({ method: 'DELETE', url: '/v2/demo', headers: orgOwner });
    expect(refused.statusCode).toBe(403);
    expect(await count("SELECT count(*)::int AS n FROM organizations WHERE id = 'demo-org'")).toBe(
      1,
    );
    const res = await app.inject({ method: 'DELETE', url: '/v2/demo', headers: platformOwner });
    expect(res.statusCode).toBe(200);
    const removed = res.json<{ organizations: number; accounts: number }>();
    expect(removed.organizations).toBe(2);
    expect(removed.accounts).toBeGreaterThan(0);
    expect(await demoRows()).toEqual([]);
    expect(
      await count('SELECT count(*)::int AS n FROM users WHERE id = ANY($1::text[])', [
        DEMO_ACCOUNTS.map((a) => a.id),
      ]),
    ).toBe(0);
    expect(
      await count("SELECT count(*)::int AS n FROM organizations WHERE id = 'customer-org'"),
    ).toBe(1);
    const signIn = await app.inject({
      method: 'POST',
      url: '/v2/auth/signIn',
      payload: { email: 'all-owner@example.com', password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);
    // Run again (the CLI after the button): nothing is left, nothing fails.
    expect(await removeDemo(db, now)).toEqual({ organizations: 0, accounts: 0 });

    // A start on a database without organisations does not bring it back.
    await db.query("DELETE FROM organizations WHERE id = 'customer-org'");
    await seedOnStart(db, true, () => undefined);
    expect(await count('SELECT count(*)::int AS n FROM organizations')).toBe(0);
  });
});
