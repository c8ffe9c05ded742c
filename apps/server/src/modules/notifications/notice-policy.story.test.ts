import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TYPES, type AlertType, DEFAULT_SCHEDULE } from '@wearable/domain';
import { alertWritesRepository } from '../alerts/alert-writes.repository.js';
import { BUS_EVENTS } from '../../bus/events.js';
import {
  createGateway,
  createGroup,
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { notificationsService } from './notifications.service.js';

/**
 * A hot afternoon at one site told through the real app (issue 14 item 3-4): twenty wearers, a few
 * dozen non-EMERGENCY alerts within the hour, an SOS in the middle. The staff phone gets a handful of
 * messages (the first, one grouped message, at most six in the hour, one summary), the SOS at once;
 * every message held, capped or inhibited is in the log with its reason and the alerts it covered.
 */

const STAFF_PHONE = '+819012340000';
let t: TestApp;
let owner: UserRecord;
let wearers: WearerRecord[];
let site: { id: string; name: string };
/**
 * The afternoon's clock: two days ahead of the real one, running from when the site is set up. Other
 * test files on the same PostgreSQL database sweep with clocks at most minutes ahead, so they never
 * reach this story's due windows; this story's sweeps take only its own organisation.
 */
let t0 = Date.now();
let organizationId = '';

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrganization(t);
  organizationId = org.id;
  site = await createGroup(t, { organizationId: org.id, name: '第一現場' });
  owner = await createUser(t, {
    role: 'ORGANIZATION_OWNER',
    organizationId: org.id,
    phoneNumber: STAFF_PHONE,
  });
  const gateway = await createGateway(t.db, { organizationId: org.id, groupId: site.id });
  wearers = [];
  for (let i = 0; i < 20; i++) {
    wearers.push(
      await createWearer(t, {
        organizationId: org.id,
        groupId: site.id,
        gateway,
        name: `作業員${String(i + 1).padStart(2, '0')}`,
      }),
    );
  }
  // The site is at DANGER (site_heat_state, migration 019): heat CAUTION alerts are inhibited.
  await t.db.query(
    `INSERT INTO site_heat_state (gateway_id, organization_id, level, level_since, wbgt, wbgt_at, state, updated_at)
     VALUES ($1, $2, 'DANGER', $3, 31.6, $3, '{}'::jsonb, $3)`,
    [gateway.id, org.id, new Date(Date.now() - 3_600_000)],
  );
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
  // This app's clock runs two days ahead: its own timer jobs (the notification sweep, the engine's
  // ticks) must not run, or they would act on every other test file's organisations in a shared
  // PostgreSQL database (escalating their alerts, ticking their wearers) two days early, and sweep
  // this story's windows at times of their own. The story sweeps by hand (`serverAt`).
  t.ctx.cluster = { ...t.ctx.cluster, leads: () => false };
  const realStart = Date.now();
  t0 = realStart + 2 * 24 * 3_600_000;
  t.ctx.now = () => new Date(t0 + Date.now() - realStart);
});
afterAll(() => t.close());

/** An alert the engine opened (its write path), `minutes` after t0. */
async function open(w: WearerRecord, type: AlertType, minutes = 0) {
  const at = new Date(t0 + minutes * 60_000);
  const alert = await alertWritesRepository(t.db).insertOpen({
    id: randomUUID(),
    organizationId: w.organizationId,
    groupId: w.groupId,
    wearerId: w.uid,
    braceletId: w.bracelet.id,
    type,
    level: type === 'ADVANCED_HEATSTROKE_RISK' ? 'CAUTION' : 'CRITICAL',
    openedAt: at,
    raisedAt: at,
    cause: { rule: 'test', values: {}, windowStart: at.toISOString(), windowEnd: at.toISOString() },
    notify: true,
  });
  if (!alert) throw new Error('alert not opened');
  return alert;
}

/** A console request on the real clock (the owner's token was issued on it). */
async function asStaff(url: string) {
  const afternoon = t.ctx.now;
  t.ctx.now = () => new Date();
  try {
    return await t.app.inject({ url, headers: owner.headers });
  } finally {
    t.ctx.now = afternoon;
  }
}

/** The notifier of a server whose clock reads t0 + `minutes` (a restarted one: nothing in memory). */
const serverAt = (minutes: number) => {
  const service = notificationsService(
    { ...t.ctx, now: () => new Date(t0 + minutes * 60_000) },
    t.ctx.phone,
  );
  return {
    alertOpened: (id: string) => service.alertOpened(id),
    sweep: () => service.sweep(organizationId),
  };
};

interface LogRow {
  id: string;
  alert_id: string;
  status: string;
  reason: string | null;
  text: string;
  created_at: Date;
  sent_at: Date | null;
}
/** The SMS log of the staff phone (the unconfirmed SOS's escalation calls it as well: not counted here). */
const staffLog = () =>
  t.db.query<LogRow>(
    `SELECT id, alert_id, status, reason, text, created_at, sent_at FROM notifications
      WHERE recipient = $1 AND channel = 'SMS' ORDER BY created_at, id`,
    [STAFF_PHONE],
  );
const sentToStaff = async () => (await staffLog()).filter((n) => n.status !== 'withheld');

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a hot afternoon for twenty wearers', () => {
  let sosId: string;
  const heatIds: string[] = [];

  it('the first heat alert goes at once, the others wait for the window, heat CAUTION is inhibited, and an SOS in the middle goes within a second', async () => {
    // Twenty CRITICAL heatstroke alerts and ten heat CAUTION alerts, as the engine emits them.
    for (const [i, w] of wearers.entries()) {
      const heat = await open(w, 'HEATSTROKE');
      heatIds.push(heat.id);
      t.ctx.bus.emit(BUS_EVENTS.alertOpened, heat);
      if (i % 2) t.ctx.bus.emit(BUS_EVENTS.alertOpened, await open(w, 'ADVANCED_HEATSTROKE_RISK'));
      if (i === 9) {
        // The SOS through the real gateway endpoint, while the heat notices are being decided.
        const w9 = wearers[9]!;
        const res = await t.app.inject({
          method: 'POST',
          url: '/gateway/v1/batches',
          headers: { authorization: `Gateway ${w9.gateway.id}:${w9.gateway.credential}` },
          payload: {
            events: [
              {
                serialNumber: w9.bracelet.serialNumber,
                type: 'SOS',
                at: t.ctx.now().toISOString(),
              },
            ],
          },
        });
        expect(res.json()).toMatchObject({ accepted: 1 });
      }
    }
    const sos = await until(async () => {
      const [row] = await t.db.query<{ id: string; opened_at: Date }>(
        "SELECT id, opened_at FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL'",
        [wearers[9]!.uid],
      );
      return row;
    });
    sosId = sos.id;
    const sosNotice = await until(async () =>
      (await staffLog()).find((n) => n.alert_id === sosId && n.sent_at !== null),
    );
    expect(sosNotice).toMatchObject({ reason: 'emergency', status: 'delivered' });
    // One SMS segment (issue 36 item 4): the compact text, "SOS".
    expect(sosNotice.text).toMatch(/^【緊急】作業員10さん SOS /);
    expect(new Date(sosNotice.sent_at!).getTime() - new Date(sos.opened_at).getTime()).toBeLessThan(
      1000,
    );

    // Every heat alert was decided: one sent, nineteen held, ten inhibited.
    const log = await until(async () => {
      const rows = await staffLog();
      return rows.length === 31 ? rows : undefined;
    });
    const count = (reason: string) => log.filter((n) => n.reason === reason).length;
    expect([count('first'), count('held'), count('inhibited'), count('emergency')]).toEqual([
      1, 19, 10, 1,
    ]);
    expect(log.filter((n) => n.reason === 'held').every((n) => n.status === 'withheld')).toBe(true);
    expect(await sentToStaff()).toHaveLength(2);
  });

  it('at the window end ONE message names the site, the type and the people; two servers sweeping at once send it once', async () => {
    await Promise.all([serverAt(3).sweep(), serverAt(3).sweep()]);
    const sent = await sentToStaff();
    expect(sent).toHaveLength(3);
    const grouped = sent.at(-1)!;
    expect(grouped.reason).toBe('grouped');
    expect(grouped.text).toMatch(
      /^【重大】第一現場: 熱中症 19名 \(作業員\d\d, 作業員\d\d, 作業員\d\d, 作業員\d\d, 作業員\d\d 他\) \d\d:\d\d-\d\d:\d\d$/,
    );

    // The log says what it covered; each covered alert's timeline has the held notice and the message.
    const res = await asStaff('/v2/notifications?pageSize=50');
    const entry = (res.json().notifications as { id: string; covers: unknown[] }[]).find(
      (n) => n.id === grouped.id,
    );
    expect(entry).toMatchObject({ reason: 'grouped', status: 'delivered' });
    expect(entry?.covers).toHaveLength(19);
    expect(entry?.covers[0]).toMatchObject({ type: 'HEATSTROKE', level: 'CRITICAL' });

    // The first heat notice and the SOS's leave in either order (the alert outbox delivers an
    // EMERGENCY first: decision 0015).
    const firstHeat = sent.find((n) => n.reason === 'first')!.alert_id;
    const heldAlert = heatIds.find((id) => id !== firstHeat && id !== sosId)!;
    const timeline = await asStaff(`/v2/alert/${heldAlert}/timeline`);
    const notices = (timeline.json().events as { kind: string; reason?: string; status?: string }[])
      .filter((e) => e.kind === 'notification')
      .map((e) => [e.reason, e.status]);
    expect(notices).toEqual([
      ['held', 'withheld'],
      ['grouped', 'delivered'],
    ]);
  });

  it('through the hour: at most six messages, ONE of them the summary with the console link, then silence; SOS is never counted', async () => {
    // A new CRITICAL alert every 3 minutes for the rest of the hour, each on a server at that time.
    for (let i = 0; i < 18; i++) {
      const minutes = 5 + i * 3;
      const server = serverAt(minutes);
      await server.sweep();
      const alert = await open(wearers[i]!, 'HEART_RATE_ANOMALY_SUSTAINED', minutes);
      await server.alertOpened(alert.id);
      await server.sweep();
    }
    await serverAt(59).sweep();
    const sent = await sentToStaff();
    const reasons = sent.map((n) => n.reason);
    // first and SOS (in either order: the outbox delivers an EMERGENCY first), grouped, three more
    // at once, and the summary: six in the hour, the summary included.
    expect([...reasons.slice(0, 2)].sort()).toEqual(['emergency', 'first']);
    expect(reasons.slice(2)).toEqual(['grouped', 'first', 'first', 'first', 'capSummary']);
    const summary = sent.at(-1)!;
    expect(summary.text).toMatch(
      /^【通知上限】この1時間の通知が上限\(6件\)に達しました。ほか\d+件のアラートはコンソールで確認してください: http.+\/alert-histories$/,
    );
    // Nothing silently dropped: every alert past the cap is on record as capped.
    const capped = (await staffLog()).filter((n) => n.reason === 'capped');
    expect(capped.length).toBeGreaterThanOrEqual(13);
    // The embedded provider wrote exactly the messages that were sent (DATA_DIR/sms).
    const outbox = readdirSync(join(t.ctx.config.dataDir, 'sms')).filter(
      (f) => f.includes(STAFF_PHONE.slice(1)) && f.endsWith('_sms.txt'),
    );
    expect(outbox).toHaveLength(sent.length);
  });

  it('the next hour still-open, unconfirmed alerts are reminded: the first at once, the rest as one message; confirmed, closed and inhibited ones are not', async () => {
    const before = (await sentToStaff()).length;
    // Someone confirmed one heat alert and another closed (recovered) before the reminders fall due.
    const [confirmed, closed] = [heatIds[0]!, heatIds[1]!];
    await t.db.query('UPDATE alerts SET confirmed_at = $2, confirmed_by = $3 WHERE id = $1', [
      confirmed,
      new Date(t0 + 40 * 60_000),
      owner.uid,
    ]);
    await t.db.query(
      "UPDATE alerts SET status = 'CLOSED', closed_at = $2, close_reason = 'recovered' WHERE id = $1",
      [closed, new Date(t0 + 40 * 60_000)],
    );
    // Reminders fall due 30 minutes after each notice. The hour of the cap began with the first
    // message, a few seconds after t0 on the first test's running clock (more on a loaded machine):
    // the sweeps come after that hour, read from the bucket rather than assumed.
    const [bucket] = await t.db.query<{ hour_started_at: Date | string }>(
      "SELECT hour_started_at FROM notice_buckets WHERE recipient = $1 AND channel = 'SMS'",
      [STAFF_PHONE],
    );
    const hourStart = (new Date(bucket!.hour_started_at).getTime() - t0) / 60_000;
    await serverAt(hourStart + 61).sweep();
    await serverAt(hourStart + 64).sweep();
    await serverAt(hourStart + 67).sweep();
    const sent = (await sentToStaff()).slice(before);
    // The first due reminder at once, the rest (heat and heart-rate alerts) as one message.
    expect(sent.map((n) => n.reason)).toEqual(['repeat', 'grouped']);
    expect(sent[0]?.text).toMatch(/^【重大・未確認】作業員\d\dさん: /);
    expect(sent[1]?.text).toMatch(/^【重大】第一現場: 熱中症・高心拍の継続 \d+名/);
    expect(
      (await staffLog()).filter((n) => n.reason === 'inhibited' && n.status !== 'withheld'),
    ).toEqual([]);
    const reminded = await t.db.query<{ alert_id: string }>(
      `SELECT na.alert_id FROM notification_alerts na JOIN notifications n ON n.id = na.notification_id
        WHERE n.recipient = $1 AND n.created_at > $2`,
      [STAFF_PHONE, new Date(t0 + 60 * 60_000)],
    );
    expect(reminded.length).toBeGreaterThan(10);
    expect(reminded.map((r) => r.alert_id)).not.toContain(confirmed);
    expect(reminded.map((r) => r.alert_id)).not.toContain(closed);
  });
});
