import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, insertAlert, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { deliveryRepository } from './delivery.repository.js';
import { notificationsRepository } from './notifications.repository.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

/** Migration 018's backfill of alerts.first_notice_at / first_delivery_at from the notifications. */
const BACKFILL = /^UPDATE alerts [\s\S]*?;$/m.exec(
  readFileSync(new URL('../../db/migrations/018_alert_first_notice.sql', import.meta.url), 'utf8'),
)![0];

const firsts = (alertId: string) =>
  t.db
    .query<{ first_notice_at: Date | null; first_delivery_at: Date | null }>(
      'SELECT first_notice_at, first_delivery_at FROM alerts WHERE id = $1',
      [alertId],
    )
    .then((r) => r[0]);

describe("an alert's first notice sent and first delivered (alerts.first_notice_at / first_delivery_at)", () => {
  it('are the earliest of its attempts, whatever order the reports arrive in, and the migration backfill agrees', async () => {
    const raised = new Date('2026-09-10T00:00:00Z');
    const after = (s: number) => new Date(raised.getTime() + s * 1000);
    const alertId = await insertAlert(t.db, w.w1, { openedAt: raised });
    const attempt = {
      organizationId: w.w1.organizationId,
      alertId,
      step: 1,
      userId: null,
      provider: 'twilio',
      text: 'x',
    } as const;
    const sms = await notificationsRepository(t.db).insertAttempt(
      { ...attempt, channel: 'SMS', recipient: '+819011110000' },
      'queued',
      after(1),
      null,
    );
    const call = await notificationsRepository(t.db).insertAttempt(
      { ...attempt, channel: 'PHONE_CALL', recipient: '+819022220000' },
      'queued',
      after(1),
      null,
    );
    expect(await firsts(alertId)).toEqual({ first_notice_at: null, first_delivery_at: null });

    // Twilio answers the call 'sent' at once, the SMS 'queued' (nothing sent yet).
    await notificationsRepository(t.db).recordOutcome(
      call,
      { status: 'sent', providerId: 'CA-first' },
      after(12),
    );
    await notificationsRepository(t.db).recordOutcome(
      sms,
      { status: 'queued', providerId: 'SM-first' },
      after(2),
    );
    expect(await firsts(alertId)).toEqual({ first_notice_at: after(12), first_delivery_at: null });

    const report = (providerId: string, status: 'sent' | 'delivered', s: number) =>
      t.db.transaction((tx) =>
        deliveryRepository(tx).recordProviderStatus('twilio', {
          providerId,
          status,
          providerStatus: status,
          error: null,
          at: after(s),
        }),
      );
    await report('CA-first', 'delivered', 40);
    expect(await firsts(alertId)).toEqual({
      first_notice_at: after(12),
      first_delivery_at: after(40),
    });
    // The SMS's delivery reached the phone earlier but its callback arrives later: it wins the delivery, not the notice.
    await report('SM-first', 'delivered', 30);
    expect(await firsts(alertId)).toEqual({
      first_notice_at: after(12),
      first_delivery_at: after(30),
    });
    // Late or repeated reports move nothing.
    await report('SM-first', 'sent', 50);
    await report('CA-first', 'delivered', 60);
    expect(await firsts(alertId)).toEqual({
      first_notice_at: after(12),
      first_delivery_at: after(30),
    });

    // The same as the minimum over the attempts, which migration 018 backfills from.
    const [min] = await t.db.query<{ sent: Date; delivered: Date }>(
      'SELECT min(sent_at) AS sent, min(delivered_at) AS delivered FROM notifications WHERE alert_id = $1',
      [alertId],
    );
    expect(min).toEqual({ sent: after(12), delivered: after(30) });
    await t.db.query(
      'UPDATE alerts SET first_notice_at = NULL, first_delivery_at = NULL WHERE id = $1',
      [alertId],
    );
    await t.db.exec(BACKFILL);
    expect(await firsts(alertId)).toEqual({
      first_notice_at: after(12),
      first_delivery_at: after(30),
    });
  });
});
