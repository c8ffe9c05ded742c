import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openPglite, openPostgres } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { pgliteFolderFromTemplate } from '../testing/test-db.js';
import {
  createGroup,
  createOrganization,
  createWearer,
  type WearerRecord,
} from '../testing/factories.js';
import { eventually } from '../testing/gateway-load.js';
import { freshPostgresDatabase, type SpawnedServer, spawnServer } from '../testing/spawn-server.js';

/**
 * The moment between an SOS batch's commit and its answer (issue 34 item 7): the server is killed
 * (kill -9 semantics, TEST_FAULT=…:kill) or PostgreSQL ends every backend (…:terminate) right after
 * the commit. Then the alert is notified exactly once (the faked SMS files in DATA_DIR/sms and the
 * notifications table), its escalation row exists, nothing is left in the alert outbox, and the
 * gateway's resend of the unanswered batch opens nothing new.
 */
const postgres = !!process.env.TEST_DATABASE_URL;
const PHONE = '+819012340000';

async function seed(db: Db): Promise<WearerRecord> {
  const org = await createOrganization(db);
  const group = await createGroup(db, { organizationId: org.id });
  const wearer = await createWearer(db, { organizationId: org.id, groupId: group.id });
  await db.query(
    `INSERT INTO group_alert_notice_settings
       (id, organization_id, group_id, phone_number, channel, alert_types, schedule, step, position)
     VALUES ($1, $2, $3, $4, 'SMS', '["SOS_CALL"]', $5::jsonb, 1, 0)`,
    [randomUUID(), org.id, group.id, PHONE, JSON.stringify(DEFAULT_SCHEDULE)],
  );
  return wearer;
}

const post = (baseUrl: string, w: WearerRecord, body: object) =>
  fetch(`${baseUrl}/gateway/v1/batches`, {
    method: 'POST',
    headers: {
      authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });

const reading = (w: WearerRecord) => ({
  readings: [
    {
      serialNumber: w.bracelet.serialNumber,
      at: new Date(Date.now() - 5_000).toISOString(),
      heartRate: 72,
    },
  ],
});
const sos = (w: WearerRecord) => ({
  events: [
    {
      serialNumber: w.bracelet.serialNumber,
      at: new Date(Date.now() - 1_000).toISOString(),
      type: 'SOS',
    },
  ],
});

/** SMS files written for the test's recipient (the embedded provider's DATA_DIR/sms). */
const smsFiles = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, 'sms')).filter((f) => f.includes(PHONE.slice(1)));
  } catch {
    return [];
  }
};

async function stateOf(db: Db, w: WearerRecord) {
  const alerts = await db.query<{ id: string }>(
    `SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'`,
    [w.uid],
  );
  const ids = alerts.map((a) => a.id);
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [ids]))[0]?.n ?? 0;
  return {
    alerts: ids.length,
    notices: await count(
      'SELECT count(*)::int AS n FROM notifications WHERE alert_id = ANY($1::text[])',
    ),
    escalations: await count(
      'SELECT count(*)::int AS n FROM notification_escalations WHERE alert_id = ANY($1::text[])',
    ),
    outbox: await count(
      'SELECT count(*)::int AS n FROM alert_outbox WHERE alert_id = ANY($1::text[])',
    ),
  };
}

describe('a server dies between an SOS batch commit and its answer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wearable-kill-commit-'));
  const servers: SpawnedServer[] = [];
  const dbs: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    for (const d of dbs) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(!postgres)(
    'PGlite, HTTP: kill -9 right after the commit; the restarted server notifies once, the resend opens nothing',
    async () => {
      const dataDir = join(dir, 'lite');
      pgliteFolderFromTemplate(dataDir);
      const seedDb = await openPglite(dataDir);
      await migrate(seedDb);
      const w = await seed(seedDb);
      await seedDb.close();

      const log = join(dir, 'lite.log');
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
      const doomed = await spawnServer({ ...env, TEST_FAULT: 'batch-committed:kill' }, log);
      servers.push(doomed);
      await doomed.ready();
      const exited = new Promise((r) => doomed.child.once('exit', r));
      const batch = sos(w);
      await expect(post(doomed.baseUrl, w, batch)).rejects.toThrow();
      await exited;

      // Committed, not told: the alert and its outbox rows, no notice yet.
      const between = await openPglite(dataDir);
      try {
        expect(await stateOf(between, w)).toMatchObject({ alerts: 1, notices: 0, outbox: 2 });
      } finally {
        await between.close();
      }

      const server = await spawnServer(env, log, doomed.port);
      servers.push(server);
      await server.ready();
      await eventually(async () => smsFiles(dataDir).length === 1, 20_000, 'one SMS');
      // The gateway sends the unanswered batch again: a duplicate, nothing opens.
      const resent = await post(server.baseUrl, w, batch);
      expect(resent.status).toBe(200);
      expect(await resent.json()).toMatchObject({ accepted: 0, duplicates: 1 });
      await new Promise((r) => setTimeout(r, 1_500));
      await server.stop();

      expect(smsFiles(dataDir)).toHaveLength(1);
      const after = await openPglite(dataDir);
      try {
        expect(await stateOf(after, w)).toEqual({
          alerts: 1,
          notices: 1,
          escalations: 1,
          outbox: 0,
        });
      } finally {
        await after.close();
      }
    },
    240_000,
  );

  it.runIf(postgres)(
    'PostgreSQL, two servers: kill -9 right after the SOS lane committed; the other server notifies once, the resend opens nothing',
    async () => {
      const fresh = await freshPostgresDatabase('killcommit');
      dbs.push(fresh);
      const dirA = join(dir, 'a');
      const dirB = join(dir, 'b');
      mkdirSync(dirA);
      mkdirSync(dirB);
      const base = { DATABASE_URL: fresh.url, WORKERS: '1' };
      const b = await spawnServer({ ...base, DATA_DIR: dirB }, join(dir, 'b.log'));
      servers.push(b);
      await b.ready();
      const a = await spawnServer(
        { ...base, DATA_DIR: dirA, TEST_FAULT: 'urgent-committed:kill' },
        join(dir, 'a.log'),
      );
      servers.push(a);
      await a.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      const w = await seed(seedDb);

      try {
        // Worn and read through A: A has the wearer's engine state, so its SOS takes the urgent lane.
        expect((await post(a.baseUrl, w, reading(w))).status).toBe(200);
        const batch = sos(w);
        const exited = new Promise((r) => a.child.once('exit', r));
        const killedAt = Date.now();
        await expect(post(a.baseUrl, w, batch)).rejects.toThrow();
        await exited;

        // B takes A's outbox rows: one SMS, from B, within seconds of the kill.
        await eventually(async () => smsFiles(dirB).length === 1, 20_000, 'one SMS from B');
        expect(Date.now() - killedAt).toBeLessThan(15_000);
        // The gateway resends to B: the event was stored with its alert, nothing opens.
        const resent = await post(b.baseUrl, w, batch);
        expect(resent.status).toBe(200);
        expect(await resent.json()).toMatchObject({ accepted: 0, duplicates: 1 });
        await new Promise((r) => setTimeout(r, 1_500));
        expect(smsFiles(dirA)).toHaveLength(0);
        expect(smsFiles(dirB)).toHaveLength(1);
        expect(await stateOf(seedDb, w)).toEqual({
          alerts: 1,
          notices: 1,
          escalations: 1,
          outbox: 0,
        });
      } finally {
        await seedDb.close();
      }
    },
    240_000,
  );

  it.runIf(postgres)(
    'PostgreSQL: every backend terminated right after the commit; the alert is notified once, the resend opens nothing',
    async () => {
      const fresh = await freshPostgresDatabase('termcommit');
      dbs.push(fresh);
      const dataDir = join(dir, 'term');
      mkdirSync(dataDir);
      const server = await spawnServer(
        {
          DATABASE_URL: fresh.url,
          WORKERS: '1',
          DATA_DIR: dataDir,
          TEST_FAULT: 'batch-committed:terminate',
        },
        join(dir, 'term.log'),
      );
      servers.push(server);
      await server.ready();
      const seedDb = await openPostgres(fresh.url, 2);
      const w = await seed(seedDb);
      try {
        const batch = sos(w);
        const first = await post(server.baseUrl, w, batch);
        // Committed; the answer may or may not have got through the terminated connections.
        expect([200, 503]).toContain(first.status);
        await eventually(async () => smsFiles(dataDir).length === 1, 20_000, 'one SMS');
        let resent = await post(server.baseUrl, w, batch);
        for (let i = 0; resent.status === 503 && i < 20; i++) {
          await new Promise((r) => setTimeout(r, 250));
          resent = await post(server.baseUrl, w, batch);
        }
        expect(resent.status).toBe(200);
        expect(await resent.json()).toMatchObject({ accepted: 0, duplicates: 1 });
        await new Promise((r) => setTimeout(r, 1_500));
        expect(smsFiles(dataDir)).toHaveLength(1);
        // The seed connection was terminated too: a new one.
        await seedDb.close().catch(() => undefined);
        const check = await openPostgres(fresh.url, 1);
        try {
          expect(await stateOf(check, w)).toEqual({
            alerts: 1,
            notices: 1,
            escalations: 1,
            outbox: 0,
          });
        } finally {
          await check.close();
        }
      } finally {
        await seedDb.close().catch(() => undefined);
      }
    },
    240_000,
  );
});
