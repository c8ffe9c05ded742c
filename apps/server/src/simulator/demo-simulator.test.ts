import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOrganization, createWearer } from '../testing/factories.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { startDemoSimulator } from './demo-simulator.js';
import type { SimLogger } from './logger.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const messages: string[] = [];
const log: SimLogger = {
  info: (obj, msg) => messages.push(`${msg} ${JSON.stringify(obj)}`),
  warn: (_obj, msg) => messages.push(msg),
  error: (obj, msg) => messages.push(`${msg} ${JSON.stringify(obj)}`),
};
const readings = async (organizationId: string) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM readings WHERE organization_id = $1',
        [organizationId],
      )
    )[0]?.n,
  );
const waitFor = async (check: () => Promise<boolean>, ms = 20_000) => {
  for (
    const end = Date.now() + ms;
    Date.now() < end;
    await new Promise((r) => setTimeout(r, 200))
  ) {
    if (await check()) return true;
  }
  return false;
};

it('fills the last hour, then keeps the wearers live until stopped', async () => {
  const org = await createOrganization(t.db, { isDemo: true });
  for (let i = 0; i < 3; i++)
    await createWearer(t.db, { organizationId: org.id, birthDate: '1980-04-01' });
  const demo = await startDemoSimulator(t.ctx, log, {
    organization: org,
    backfillHours: 1,
    intervalMs: 250,
    eventsPerHour: 0,
    // No shift plan: its scripted out-of-range hours would make the count depend on the time of day.
    plan: [],
  });
  expect(demo?.wearers).toBe(3);
  // An hour of history at one reading a minute per wearer arrives first...
  expect(await waitFor(async () => (await readings(org.id)) >= 3 * 59), messages.join('\n')).toBe(
    true,
  );
  // The count alone does not say the history is over (a minute more or less of it): wait for its end.
  const historySent = () =>
    messages.some((m) => m.startsWith('simulator: demo history sent, now live'));
  expect(await waitFor(async () => Promise.resolve(historySent())), messages.join('\n')).toBe(true);
  // ...then live readings keep coming: the next minute's, once the clock passes its start. The clock moves a minute on
  // instead of the test waiting up to a minute for it (on average 30 s idle in each database's pass).
  const afterBackfill = await readings(org.id);
  const realNow = t.ctx.now;
  t.ctx.now = () => new Date(Date.now() + 60_000);
  expect(await waitFor(async () => (await readings(org.id)) > afterBackfill)).toBe(true);
  await demo!.stop();
  t.ctx.now = realNow;
  const stopped = await readings(org.id);
  await new Promise((r) => setTimeout(r, 1000));
  expect(await readings(org.id)).toBe(stopped);
  expect(messages.filter((m) => m.includes('error'))).toEqual([]);
}, 120_000);

it('once live, keeps an emergency open and a mistyped serial refused at its gateway, at any hour', async () => {
  const org = await createOrganization(t.db, { isDemo: true });
  for (let i = 0; i < 4; i++)
    await createWearer(t.db, { organizationId: org.id, birthDate: '1950-04-01' });
  const demo = await startDemoSimulator(t.ctx, log, {
    organization: org,
    backfillHours: 0.2,
    intervalMs: 250,
    eventsPerHour: 0,
    plan: [],
    keeperMs: 200,
  });
  const count = async (sql: string) =>
    Number((await t.db.query<{ n: number }>(sql, [org.id]))[0]?.n);
  try {
    const live = () => messages.some((m) => m.includes('now live') && m.includes(org.id));
    expect(await waitFor(async () => Promise.resolve(live()))).toBe(true);
    // The keeper's SOS happens within the next simulated minute: the clock moves two minutes on.
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(Date.now() + 120_000);
    expect(
      await waitFor(
        async () =>
          (await count(
            `SELECT count(*)::int AS n FROM alerts
              WHERE organization_id = $1 AND status = 'OPEN' AND type IN ('SOS_CALL', 'DETECT_FALL_DOWN')`,
          )) === 1,
      ),
      messages.join('\n'),
    ).toBe(true);
    t.ctx.now = realNow;
    // The mistyped serial (nothing else is refused here) is listed on its gateway's page as refused; the list is
    // written every few seconds. Not matched by its letters: a random serial may have no 0 to mistype as O.
    await t.ctx.gatewayRefusals.flush();
    expect(
      await count(
        `SELECT count(*)::int AS n FROM gateway_refusals r JOIN gateways g ON g.id = r.gateway_id
          WHERE g.organization_id = $1`,
      ),
    ).toBe(1);
  } finally {
    await demo!.stop();
  }
  expect(messages.filter((m) => m.includes('error') || m.includes('missed'))).toEqual([]);
}, 120_000);

it('does not start without an organisation that has worn bracelets', async () => {
  const org = await createOrganization(t.db, { isDemo: true });
  expect(await startDemoSimulator(t.ctx, log, { organization: org })).toBeNull();
});
