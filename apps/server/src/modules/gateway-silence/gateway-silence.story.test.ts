import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TYPES, DEFAULT_SCHEDULE } from '@wearable/domain';
import { authService } from '../auth/auth.service.js';
import { lockWearers, publishOutcome, runEngine } from '../alerts/engine-turn.js';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type GatewayRecord,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { postBatch } from '../../testing/gateway-batch.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { sweepAndNotify } from './gateway-silence.plugin.js';

/**
 * Issue 34 item 6 through the real app: a gateway serving three wearers goes silent. Exactly one
 * gateway alert opens and ONE message goes to its group; the wearers' DISCONNECTION alerts still
 * open 10 minutes on, but each is withheld as `inhibited` and covered by the gateway's message;
 * the gateway alert closes when the gateway is heard again. The SMS provider is the app's file
 * provider (DATA_DIR/sms), as in the other notification tests.
 */

const STAFF_PHONE = '+819055550034';
let t: TestApp;
let organizationId = '';
let owner: UserRecord;
let outsider: UserRecord;
let personal: UserRecord;
let gateway: GatewayRecord;
const wearers: WearerRecord[] = [];
/** The story's clock: three days ahead of the real one, moved by hand (docs/testing.md). */
const t0 = Date.now() + 3 * 24 * 3_600_000;
let clock = t0;
const at = (minutes: number) => {
  clock = t0 + minutes * 60_000;
  return new Date(clock);
};

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  organizationId = org.id;
  const site = await createGroup(t, { organizationId: org.id, name: '第二現場' });
  owner = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId: org.id,
    phoneNumber: STAFF_PHONE,
  });
  outsider = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId: (await createOrganization(t)).id,
  });
  personal = await createUser(t, { role: 'PERSONAL', organizationId: org.id });
  gateway = await createGateway(t.db, {
    organizationId: org.id,
    groupId: site.id,
    name: '東ゲート',
  });
  for (let i = 0; i < 3; i++) {
    wearers.push(
      await createWearer(t, {
        organizationId: org.id,
        groupId: site.id,
        gateway,
        name: `作業員${i + 1}`,
      }),
    );
  }
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/group/${site.id}/alertNoticeSettings`,
    headers: owner.headers,
    payload: {
      recipients: [
        {
          userId: owner.uid,
          channel: 'SMS',
          alertTypes: [...ALERT_TYPES],
          schedule: DEFAULT_SCHEDULE,
          order: 1,
        },
      ],
    },
  });
  expect(res.statusCode).toBe(200);
  // The clock moves by hand: this app's own timer jobs (the engine's ticks, the sweeps) must not act
  // on other test files' organisations in a shared PostgreSQL database.
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  t.ctx.now = () => new Date(clock);
});
afterAll(() => t.close());

/** A batch from the gateway: one heart rate per wearer, at the story's clock. */
const heard = async () => {
  const now = new Date(clock).toISOString();
  const res = await postBatch(t, gateway, {
    readings: wearers.map((w) => ({
      serialNumber: w.bracelet.serialNumber,
      at: now,
      heartRate: 72,
    })),
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ accepted: 3 });
};

/** The engine's minute tick for this story's wearers only (tickAll would tick every file's). */
async function tick() {
  const ids = wearers.map((w) => w.uid);
  const now = new Date(clock);
  const outcome = await t.db.transaction((tx) =>
    lockWearers(t.ctx, tx, ids).then((locked) =>
      runEngine(
        t.ctx,
        tx,
        locked,
        ids.map((wearerId) => ({ wearerId, inputs: [{ kind: 'tick' as const, at: now }] })),
      ),
    ),
  );
  publishOutcome(t.ctx, outcome, []);
  return outcome;
}

/** GET ingestionStatus at the story's clock, with a session started on it. */
async function status(user: UserRecord, clientId = organizationId) {
  const { accessToken } = await authService(t.ctx).startSession(user.uid);
  return t.app.inject({
    url: `/v2/client/${clientId}/ingestionStatus`,
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

const sweep = () => sweepAndNotify(t.ctx, t.ctx.phone, organizationId);

const silences = () =>
  t.db.query<{ id: string; wearer_count: number; closed_at: Date | null }>(
    'SELECT id, wearer_count, closed_at FROM gateway_silences WHERE gateway_id = $1 ORDER BY opened_at',
    [gateway.id],
  );
const staffLog = () =>
  t.db.query<{
    id: string;
    alert_id: string | null;
    gateway_silence_id: string | null;
    status: string;
    reason: string | null;
    text: string;
  }>(
    `SELECT id, alert_id, gateway_silence_id, status, reason, text FROM notifications
      WHERE recipient = $1 ORDER BY created_at, id`,
    [STAFF_PHONE],
  );

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a gateway serving three wearers goes silent', () => {
  it('opens one gateway alert with one message; the DISCONNECTION alerts open but are not notified one by one; it closes when heard', async () => {
    at(0);
    await heard();

    at(4);
    expect((await sweep()).opened).toEqual([]);

    at(6);
    const first = await sweep();
    expect(first.opened).toHaveLength(1);
    expect(await silences()).toEqual([
      expect.objectContaining({ id: first.opened[0], wearer_count: 3, closed_at: null }),
    ]);
    // Another sweep (or another server's, after a leader change) opens and sends nothing more.
    expect((await sweep()).opened).toEqual([]);
    const afterSilence = await staffLog();
    expect(afterSilence).toHaveLength(1);
    const message = afterSilence[0]!;
    expect(message).toMatchObject({
      gateway_silence_id: first.opened[0],
      alert_id: null,
      status: 'delivered',
    });
    expect(message.text).toContain('東ゲート');
    expect(message.text).toContain('装着者 3 名');
    // The console's banner: data has stopped since the last batch, and the silent gateway.
    const stopped = await status(owner);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({
      clientId: organizationId,
      stoppedSince: new Date(t0).toISOString(),
      silentGateways: [
        expect.objectContaining({ gatewayId: gateway.id, gatewayName: '東ゲート', wearerCount: 3 }),
      ],
    });

    // Ten minutes without a reading: each wearer's DISCONNECTION opens (records stay true)...
    at(11);
    const outcome = await tick();
    const disconnections = outcome.opened.filter((a) => a.type === 'DISCONNECTION');
    expect(disconnections).toHaveLength(3);
    // ...and each is withheld as inhibited, not sent.
    const log = await until(async () => {
      const rows = await staffLog();
      return rows.filter((r) => r.reason === 'inhibited').length === 3 ? rows : undefined;
    });
    const sent = log.filter((r) => r.status !== 'withheld');
    expect(sent.map((r) => r.id)).toEqual([message.id]);
    expect(new Set(log.filter((r) => r.reason === 'inhibited').map((r) => r.alert_id))).toEqual(
      new Set(disconnections.map((a) => a.id)),
    );
    // The gateway's one message covers them (the alerts' timelines and the message name each other).
    const covered = await t.db.query<{ alert_id: string }>(
      'SELECT alert_id FROM notification_alerts WHERE notification_id = $1',
      [message.id],
    );
    expect(new Set(covered.map((c) => c.alert_id))).toEqual(
      new Set(disconnections.map((a) => a.id)),
    );

    // Heard again: the wearers' DISCONNECTION close on their readings, the gateway alert on the sweep.
    at(12);
    await heard();
    const back = await sweep();
    expect(back.closed).toEqual(first.opened);
    expect((await silences())[0]!.closed_at).not.toBeNull();
    const open = await t.db.query(
      "SELECT 1 FROM alerts WHERE wearer_id = ANY($1) AND type = 'DISCONNECTION' AND status = 'OPEN'",
      [wearers.map((w) => w.uid)],
    );
    expect(open).toHaveLength(0);
    expect((await staffLog()).filter((r) => r.status !== 'withheld')).toHaveLength(1);
    expect((await status(owner)).json()).toMatchObject({ stoppedSince: null, silentGateways: [] });
  });

  it('ingestionStatus: 404 for another organisation, 403 for a personal user, 401 without a token, 400 for a bad id', async () => {
    expect((await status(outsider)).statusCode).toBe(404);
    expect((await status(personal)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ url: `/v2/client/${organizationId}/ingestionStatus` });
    expect(anonymous.statusCode).toBe(401);
    const bad = await status(owner, 'x'.repeat(65));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/clientId/);
  });
});
