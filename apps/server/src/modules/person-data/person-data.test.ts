import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_DATA_FILES } from '@wearable/domain';
import {
  createUser,
  createWearer,
  linkWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { ACTOR_NAMES, type ActorName, buildWorld, type World } from '../../testing/world.js';
import { PERSON_TABLES } from './person-data.tables.js';

/**
 * Issue 39 item 5: a person's data on request. The export holds what the product holds about them; the erasure
 * leaves nothing of them in any table of the migrated schema (each table's rows read as text), but the audit
 * log's entries that things happened, without their data.
 */
let t: TestApp;
let w: World;
let person: WearerRecord;
let self: UserRecord;
const MIN = 60_000;
const READINGS = 30;

async function batch(wearer: WearerRecord, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${wearer.gateway.id}:${wearer.gateway.credential}` },
    payload: { readings: [], environment: [], events: [], ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A wearer with a history: readings with positions, an SOS and what was sent about it, a family member, edits. */
async function livedIn(name: string): Promise<WearerRecord> {
  const wearer = await createWearer(t.db, { organizationId: w.orgA, groupId: w.g1, name });
  const start = Date.now() - READINGS * MIN;
  await batch(wearer, {
    readings: Array.from({ length: READINGS }, (_, i) => ({
      serialNumber: wearer.bracelet.serialNumber,
      at: new Date(start + i * MIN).toISOString(),
      heartRate: 70 + (i % 5),
      skinTemperature: 34.1,
      steps: 12,
      worn: true,
      location: {
        latitude: 35.68,
        longitude: 139.76,
        accuracy: 20,
        at: new Date(start + i * MIN).toISOString(),
      },
    })),
  });
  await batch(wearer, {
    events: [
      { serialNumber: wearer.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
    ],
  });
  const [alert] = await t.db.query<{ id: string }>(
    "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'",
    [wearer.uid],
  );
  expect(alert).toBeDefined();
  // What was sent about them (the notice as the providers record it) and a webhook event naming them.
  await t.db.query(
    `INSERT INTO notifications (id, organization_id, alert_id, step, channel, recipient, provider, status, text,
                                created_at, updated_at, sent_at)
     VALUES ($1, $2, $3, 1, 'SMS', '+819011112222', 'embedded', 'sent', $4, now(), now(), now())`,
    [`n-${randomUUID()}`, w.orgA, alert!.id, `【緊急】${name}さん SOS`],
  );
  await t.db.query(
    `INSERT INTO webhook_events (id, organization_id, type, payload, created_at)
     VALUES ($1, $2, 'alert.opened', $3, now())`,
    [`we-${randomUUID()}`, w.orgA, JSON.stringify({ wearer: { uid: wearer.uid, name } })],
  );
  await linkWearer(t.db, w.users.PERSONAL_LINKED, wearer);
  // An edit in the audit log, with the name before and after.
  const renamed = await t.app.inject({
    method: 'PATCH',
    url: '/v3/user/update',
    headers: w.users.ORGANIZATION_OWNER.headers,
    payload: { uid: wearer.uid, name: `${name} 改` },
  });
  expect(renamed.statusCode, renamed.body).toBe(200);
  return { ...wearer, name: `${name} 改` };
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  person = await livedIn(`消去 花子 ${randomUUID().slice(0, 6)}`);
  self = await createUser(t, {
    role: 'PERSONAL_SELF',
    organizationId: w.orgA,
    groupId: w.g1,
    name: `本人 ${randomUUID().slice(0, 6)}`,
  });
}, 120_000);
afterAll(() => t?.close());

const exportAs = (who: { headers: Record<string, string> }, uid: string) =>
  t.app.inject({ url: `/v2/user/${uid}/dataExport`, headers: who.headers });
const eraseAs = (who: { headers: Record<string, string> }, uid: string) =>
  t.app.inject({ method: 'DELETE', url: `/v2/user/${uid}/data`, headers: who.headers });

/**
 * Who may export or erase a wearer of group 1 of organisation A. A role without the permission is refused at the
 * door (403, the contract's check); one with it who does not reach the person gets the 404 of no such person.
 */
const ACCESS: Record<ActorName, { export: number; erase: number }> = {
  ALL_OWNER: { export: 200, erase: 200 },
  ALL_GENERAL: { export: 403, erase: 403 },
  ORGANIZATION_OWNER: { export: 200, erase: 200 },
  ORGANIZATION_GENERAL: { export: 403, erase: 403 },
  ORGANIZATION_GROUP: { export: 403, erase: 403 },
  GROUP_MANAGER_OTHER_GROUP: { export: 403, erase: 403 },
  OTHER_ORG_OWNER: { export: 404, erase: 404 },
  // Linked to the person (a family member): they read the records, not the whole file.
  PERSONAL_LINKED: { export: 403, erase: 403 },
  PERSONAL_UNLINKED: { export: 403, erase: 403 },
  PERSONAL_SELF: { export: 404, erase: 403 },
};

describe('a person’s data: who may', () => {
  it.each(ACTOR_NAMES.filter((n) => ACCESS[n].export !== 200))(
    '%s is refused the export and the erasure',
    async (who) => {
      expect((await exportAs(w.users[who], person.uid)).statusCode).toBe(ACCESS[who].export);
      expect((await eraseAs(w.users[who], person.uid)).statusCode).toBe(ACCESS[who].erase);
    },
  );

  it('a PERSONAL_SELF user exports their own data, not that of a wearer linked to them; erases nothing', async () => {
    expect((await exportAs(self, self.uid)).statusCode).toBe(200);
    // Linked to w1 in the world: they read w1's records, but the file is w1's own to ask for.
    const linked = await exportAs(w.users.PERSONAL_SELF, w.w1.uid);
    expect(linked.statusCode).toBe(403);
    expect(linked.json().message).toContain('person:exportOthers');
    expect((await eraseAs(self, self.uid)).statusCode).toBe(403);
  });

  it('an unknown person, a staff member and a family account are 404', async () => {
    const owner = w.users.ORGANIZATION_OWNER;
    for (const uid of ['nobody', w.users.ORGANIZATION_GENERAL.uid, w.users.PERSONAL_LINKED.uid]) {
      expect((await exportAs(owner, uid)).statusCode).toBe(404);
      expect((await eraseAs(owner, uid)).statusCode).toBe(404);
    }
    expect((await exportAs(owner, 'x'.repeat(65))).statusCode).toBe(400);
  });
});

describe('the export', () => {
  it('is a ZIP of every file, with their readings, positions, alerts and what was sent, never a secret', async () => {
    const res = await exportAs(w.users.ORGANIZATION_OWNER, person.uid);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`attachment; filename="person-${person.uid}-\\d{4}-\\d{2}-\\d{2}\\.zip"`),
    );
    const files = unzipSync(res.rawPayload);
    expect(Object.keys(files)).toEqual([...PERSON_DATA_FILES]);
    const read = (f: string) => new TextDecoder().decode(files[f]);
    const lines = (f: string) => read(f).split('\r\n').filter(Boolean);

    const profile = JSON.parse(read('profile.json')) as Record<string, unknown>;
    expect(profile).toMatchObject({
      id: person.uid,
      name: person.name,
      birth_date: person.birthDate,
    });
    expect(Object.keys(profile).filter((k) => /hash|secret/.test(k))).toEqual([]);
    expect(lines('readings.csv')).toHaveLength(READINGS + 1);
    expect(lines('readings.csv')[0]).toContain('heart_rate');
    expect(lines('positions.csv')).toHaveLength(READINGS + 1);
    expect(read('alerts.csv')).toContain('SOS_CALL');
    expect(read('device-events.csv')).toContain('SOS');
    expect(read('notifications.csv')).toContain(`【緊急】`);
    // What was sent about them, not to whom.
    expect(read('notifications.csv')).not.toContain('+819011112222');
    expect(lines('notifications.csv')[0]).not.toContain('recipient');
    expect(read('family-links.csv')).toContain(w.users.PERSONAL_LINKED.uid);
    expect(read('audit.csv')).toContain('wearer.update');
    expect(read('devices.csv')).toContain(person.bracelet.serialNumber);
    expect(read('README.txt')).toContain('readings.csv');
    // The export itself is a read of their data: in the access log, and so in their next export.
    const again = unzipSync((await exportAs(w.users.ORGANIZATION_OWNER, person.uid)).rawPayload);
    expect(new TextDecoder().decode(again['access-log.csv'])).toContain('data-export');
  });

  it('pages through more rows than a page holds, each row once', async () => {
    const wearer = await createWearer(t.db, { organizationId: w.orgA, groupId: w.g1 });
    const start = Date.UTC(2026, 0, 1);
    await t.db.query(
      `INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate)
       SELECT $1, $2::timestamptz + i * interval '1 second', $3, $4, 60 + i % 40
         FROM generate_series(0, 12344) i`,
      [wearer.bracelet.id, new Date(start), wearer.uid, w.orgA],
    );
    const res = await exportAs(w.users.ORGANIZATION_OWNER, wearer.uid);
    const csv = new TextDecoder().decode(unzipSync(res.rawPayload)['readings.csv']);
    const rows = csv.split('\r\n').filter(Boolean).slice(1);
    expect(rows).toHaveLength(12_345);
    expect(new Set(rows).size).toBe(12_345);
  });
});

describe('the erasure', () => {
  it('every table that names a person is decided (export and erasure): a new one fails here', async () => {
    const rows = await t.db.query<{ table_name: string }>(
      `SELECT DISTINCT c.table_name
         FROM information_schema.columns c
         JOIN pg_class k ON k.relname = c.table_name AND k.relkind IN ('r', 'p') AND NOT k.relispartition
        WHERE c.table_schema = current_schema()
          AND c.column_name IN ('wearer_id', 'user_id', 'phone_wearer_id', 'target_id')
        ORDER BY 1`,
    );
    const decided = new Set(Object.keys(PERSON_TABLES));
    expect(rows.map((r) => r.table_name).filter((name) => !decided.has(name))).toEqual([]);
  });

  it('leaves nothing of the person in any table but the audit log’s record that things happened', async () => {
    const res = await eraseAs(w.users.ORGANIZATION_OWNER, person.uid);
    expect(res.statusCode, res.body).toBe(200);
    expect((await eraseAs(w.users.ORGANIZATION_OWNER, person.uid)).statusCode).toBe(404);
    expect((await exportAs(w.users.ORGANIZATION_OWNER, person.uid)).statusCode).toBe(404);

    const tables = await t.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        ORDER BY 1`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      for (const needle of [person.uid, person.name, person.name.replace(' 改', '')]) {
        const [row] = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${name}" x WHERE strpos(x::text, $1) > 0`,
          [needle],
        );
        if ((row?.n ?? 0) > 0) found.push(`${name}: ${row!.n} x ${needle}`);
      }
    }
    // The audit log keeps its entries about them (the rename, this erasure) by id only, without the data.
    const audit = await t.db.query<{ kind: string; before: unknown; after: unknown }>(
      'SELECT kind, before, after FROM audit_log WHERE target_id = $1 ORDER BY id',
      [person.uid],
    );
    expect(audit.map((a) => a.kind)).toEqual(['wearer.update', 'person.erase']);
    expect(audit[0]).toMatchObject({ before: null, after: null });
    expect(audit[1]!.after).toMatchObject({ readings: READINGS, alerts: 1, users: 1 });
    expect(found).toEqual([
      // Who read their file before (the export above), by id: the access log's rows are chained, never changed.
      expect.stringMatching(new RegExp(`^access_log: \\d+ x ${person.uid}$`)),
      `audit_log: 2 x ${person.uid}`,
    ]);
    // The bracelet stays the organisation's, free for someone else; the family member keeps their account.
    const [bracelet] = await t.db.query<{ wearer_id: string | null }>(
      'SELECT wearer_id FROM bracelets WHERE id = $1',
      [person.bracelet.id],
    );
    expect(bracelet).toEqual({ wearer_id: null });
    expect((await exportAs(w.users.ORGANIZATION_OWNER, w.w1.uid)).statusCode).toBe(200);
  });

  it('a wearer removed from the list earlier is still exported and erased by an owner', async () => {
    const left = await livedIn(`退所 次郎 ${randomUUID().slice(0, 6)}`);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v2/user/wearer/${left.uid}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await exportAs(w.users.ORGANIZATION_GENERAL, left.uid)).statusCode).toBe(403);
    expect((await exportAs(w.users.OTHER_ORG_OWNER, left.uid)).statusCode).toBe(404);
    const res = await exportAs(w.users.ORGANIZATION_OWNER, left.uid);
    expect(res.statusCode).toBe(200);
    expect(new TextDecoder().decode(unzipSync(res.rawPayload)['alerts.csv'])).toContain('SOS_CALL');
    expect((await eraseAs(w.users.ORGANIZATION_OWNER, left.uid)).statusCode).toBe(200);
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE wearer_id = $1',
      [left.uid],
    );
    expect(row!.n).toBe(0);
  });
});
