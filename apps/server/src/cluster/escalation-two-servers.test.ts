import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DEFAULT_SCHEDULE } from '@wearable/domain';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { buildWorld, type World } from '../testing/world.js';
import { SWEEP_INTERVAL_MS } from '../modules/notifications/notifications.plugin.js';

// Two servers need one PostgreSQL: PGlite is one process, so this runs in server-postgres only.
const postgres = !!process.env.TEST_DATABASE_URL;

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(postgres)('EMERGENCY escalation with two servers on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let w: World;

  beforeAll(async () => {
    const databaseUrl = inject('testDatabaseUrl');
    // A starts first and takes the leader's lock: its sweeper is the one that escalates.
    a = await createTestApp({ databaseUrl, escalationAfterSeconds: 1 });
    await a.ctx.cluster.listening();
    b = await createTestApp({ databaseUrl, escalationAfterSeconds: 1 });
    await b.ctx.cluster.listening();
    w = await buildWorld(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const attempts = (alertId: string) =>
    a.db.query<{ step: number; channel: string; recipient: string }>(
      'SELECT step, channel, recipient FROM notifications WHERE alert_id = $1 ORDER BY created_at, recipient',
      [alertId],
    );

  it("a confirmation on server B stops the escalation that server A's leader runs", async () => {
    expect(a.ctx.cluster.leads()).toBe(true);
    expect(b.ctx.cluster.leads()).toBe(false);
    const put = await a.app.inject({
      method: 'PUT',
      url: `/v2/group/${w.g2}/alertNoticeSettings`,
      headers: w.users.ORGANIZATION_OWNER.headers,
      payload: {
        recipients: [1, 2, 3].map((order) => ({
          phoneNumber: `+8190777700${order}0`,
          channel: 'SMS',
          alertTypes: ['SOS_CALL'],
          schedule: DEFAULT_SCHEDULE,
          order,
        })),
      },
    });
    expect(put.statusCode).toBe(200);

    // The SOS reaches server A, which notifies the first step and starts the escalation timer.
    const sent = await a.app.inject({
      method: 'POST',
      url: '/gateway/v1/batches',
      headers: { authorization: `Gateway ${w.w2.gateway.id}:${w.w2.gateway.credential}` },
      payload: {
        events: [
          { serialNumber: w.w2.bracelet.serialNumber, type: 'SOS', at: new Date().toISOString() },
        ],
      },
    });
    expect(sent.statusCode).toBe(200);
    const alertId = await until(
      async () =>
        (
          await a.db.query<{ id: string }>(
            "SELECT id FROM alerts WHERE wearer_id = $1 AND type = 'SOS_CALL' AND status = 'OPEN'",
            [w.w2.uid],
          )
        )[0]?.id,
    );

    // Nobody confirms: A's leader sweeps and escalates to step 2 (B, not leading, never sweeps).
    await until(
      async () => ((await attempts(alertId)).some((x) => x.step === 2) ? true : undefined),
      4 * SWEEP_INTERVAL_MS,
    );
    const before = await attempts(alertId);
    expect(before.map((x) => x.step)).toEqual([1, 2]);

    // Confirmed on B.
    const confirmed = await b.app.inject({
      method: 'POST',
      url: '/v2/alert/confirm',
      headers: w.users.ORGANIZATION_GENERAL.headers,
      payload: { alertId, reason: 'CHECKED_ON_SITE' },
    });
    expect(confirmed.json()).toEqual({ alertId, result: 'confirmed' });
    const [esc] = await a.db.query<{ done_reason: string | null }>(
      'SELECT done_reason FROM notification_escalations WHERE alert_id = $1',
      [alertId],
    );
    expect(esc?.done_reason).toBe('confirmed');

    // Two more sweeps of A's leader, each well past the next due time (1 s): step 3 never comes.
    await new Promise((r) => setTimeout(r, 2 * SWEEP_INTERVAL_MS + 500));
    expect(await attempts(alertId)).toEqual(before);

    // The timeline, read on either server, tells the same story.
    const timeline = await a.app.inject({
      url: `/v2/alert/${alertId}/timeline`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    expect(timeline.json<{ events: { kind: string }[] }>().events.map((e) => e.kind)).toEqual([
      'raised',
      'notification',
      'escalation',
      'notification',
      'confirmed',
      'escalationEnded',
      'closed',
    ]);
  });
});
