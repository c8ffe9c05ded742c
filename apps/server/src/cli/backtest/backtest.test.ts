import { ALERT_POLICY_DEFAULTS } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertPolicyRepository } from '../../modules/alert-policy/alert-policy.repository.js';
import { createOrganization, createWearer, type WearerRecord } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { backtestCommand, formatReport } from '../backtest.command.js';
import { run, scenario, wearer as profileOf } from '../../engine/testing/scenario.js';
import type { EngineInput } from '../../engine/types.js';
import { BacktestInputError, parseRules, runBacktest } from './backtest.js';
import { replayWearer } from '../../engine/backtest/replay.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A whole minute three hours ago: the scripted hour ends well before now. */
const START = new Date(Math.floor((Date.now() - 3 * 3_600_000) / 60_000) * 60_000);
const minute = (m: number) => new Date(START.getTime() + m * 60_000);

/** The scripted hour: HR 150 with the skin at 36.5 C (aPSI reaches 7 at minute 39). */
const hotHour = () =>
  scenario(START).every(1, 'min', { heartRate: 150, skinTemperature: 36.5, worn: true }).for(60);

async function ingest(w: WearerRecord, inputs: EngineInput[]): Promise<void> {
  const readings = inputs.flatMap((i) =>
    i.kind === 'reading'
      ? [
          {
            serialNumber: w.bracelet.serialNumber,
            at: i.at.toISOString(),
            heartRate: i.heartRate,
            skinTemperature: i.skinTemperature,
            worn: i.worn,
          },
        ]
      : [],
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
    payload: { readings },
  });
  expect(res.json()).toMatchObject({ accepted: readings.length });
}

async function scriptedOrganization() {
  const org = await createOrganization(t.db);
  const w = await createWearer(t.db, {
    organizationId: org.id,
    birthDate: '1986-01-01',
    name: 'Hot Hana',
  });
  await ingest(w, hotHour().inputs);
  return { org, w };
}

const writes = async (orgId: string) =>
  (
    await t.db.query<{ alerts: number; versions: number }>(
      `SELECT (SELECT count(*)::int FROM alerts WHERE organization_id = $1) AS alerts,
              (SELECT coalesce(sum(version), 0)::int FROM engine_state e JOIN users u ON u.id = e.wearer_id
                WHERE u.organization_id = $1) AS versions`,
      [orgId],
    )
  )[0];

describe('backtest on a scripted scenario', () => {
  it('as stored, it finds the alert the engine stored, at the same minute, and writes nothing', async () => {
    const { org, w } = await scriptedOrganization();
    const before = await writes(org.id);
    const report = await runBacktest(t.db, {
      organizationId: org.id,
      from: START,
      to: minute(60),
      rules: null,
    });
    expect(report).toMatchObject({ wearers: 1, readings: 60 });
    expect(report.rows).toEqual([
      {
        type: 'ADVANCED_HEATSTROKE_RISK',
        wearerId: w.uid,
        wearerName: 'Hot Hana',
        proposed: { count: 1, firstAt: minute(39).toISOString() },
        stored: { count: 1, firstAt: minute(39).toISOString() },
      },
    ]);
    expect(await writes(org.id)).toEqual(before);
  });

  it('a proposed rule set: the older ECTemp model would have warned earlier; a stricter aPSI threshold not at all', async () => {
    const { org } = await scriptedOrganization();
    const period = { organizationId: org.id, from: START, to: minute(60) };
    // What the pure engine says for the same hour, as the expectation.
    const ectemp = run(profileOf({ settings: { heatStrainModel: 'ECTEMP' } }), hotHour());
    const expectedFirst = ectemp.opens('ADVANCED_HEATSTROKE_RISK')[0]!.at.toISOString();
    const old = await runBacktest(t.db, {
      ...period,
      rules: parseRules({ heatStrainModel: 'ECTEMP' }),
    });
    const risk = old.rows.find((r) => r.type === 'ADVANCED_HEATSTROKE_RISK')!;
    expect(risk.proposed).toEqual({ count: 1, firstAt: expectedFirst });
    expect(risk.stored.firstAt).toBe(minute(39).toISOString());
    expect(expectedFirst < minute(39).toISOString()).toBe(true);

    const strict = await runBacktest(t.db, {
      ...period,
      rules: parseRules({ thresholds: { apsiRisk: 9, apsiCritical: 9 } }),
    });
    expect(strict.rows.find((r) => r.type === 'ADVANCED_HEATSTROKE_RISK')!.proposed.count).toBe(0);
    expect(strict.totals).toEqual([{ type: 'ADVANCED_HEATSTROKE_RISK', proposed: 0, stored: 1 }]);
  });

  it("replays with the organisation's recovery window, as the runner stored the alerts", async () => {
    // The heart rate wanders 182 / 178 around the upper bound of 180 for an hour.
    const wandering = scenario(START);
    for (let m = 0; m < 60; m++) {
      wandering.reading({ heartRate: m % 2 === 0 ? 182 : 178, worn: true }).wait(1);
    }
    const heartRateAlerts = async (recoveryMinutes: number | null) => {
      const org = await createOrganization(t.db);
      if (recoveryMinutes !== null) {
        const policy = { ...ALERT_POLICY_DEFAULTS, recoveryMinutes };
        await alertPolicyRepository(t.db).saveAlertPolicy(org.id, policy, null, new Date());
      }
      const w = await createWearer(t.db, { organizationId: org.id, birthDate: '1986-01-01' });
      await ingest(w, wandering.inputs);
      const report = await runBacktest(t.db, {
        organizationId: org.id,
        from: START,
        to: minute(60),
        rules: null,
      });
      return report.totals.find((r) => r.type === 'HEART_RATE');
    };
    // The default 10-minute window: one alert for the hour.
    expect(await heartRateAlerts(null)).toEqual({ type: 'HEART_RATE', proposed: 1, stored: 1 });
    // No window: one alert per crossing once each cooldown is over, stored and replayed alike.
    const none = await heartRateAlerts(0);
    expect(none!.proposed).toBeGreaterThanOrEqual(4);
    expect(none!.proposed).toBe(none!.stored);
  });

  it('sees only the named organisation', async () => {
    await scriptedOrganization();
    const other = await createOrganization(t.db);
    const report = await runBacktest(t.db, {
      organizationId: other.id,
      from: START,
      to: minute(60),
      rules: null,
    });
    expect(report).toMatchObject({ wearers: 0, readings: 0, rows: [], totals: [] });
  });

  it('prints a table per type and wearer', async () => {
    const { org } = await scriptedOrganization();
    const report = await runBacktest(t.db, {
      organizationId: org.id,
      from: START,
      to: minute(60),
      rules: null,
    });
    const text = formatReport(report, 'rules.json');
    expect(text).toContain('rules rules.json');
    expect(text).toMatch(/ADVANCED_HEATSTROKE_RISK\s+Hot Hana\s+1\s+\S+\s+1/);
  });
});

describe('replay', () => {
  it('re-creates the minute ticks: a silent bracelet opens DISCONNECTION as the ticker would', () => {
    const s = scenario(START).every(1, 'min', { heartRate: 70 }).for(10);
    const fired = replayWearer(profileOf(), s.inputs, {
      warmupFrom: START,
      from: START,
      to: minute(40),
    });
    expect(fired.map((a) => [a.type, a.at])).toEqual([['DISCONNECTION', minute(19)]]);
  });

  it('counts nothing that opened during the warm-up', () => {
    const s = scenario(START)
      .reading({ heartRate: 230 })
      .wait(1)
      .every(1, 'min', { heartRate: 230 })
      .for(5);
    const window = { warmupFrom: START, from: minute(3), to: minute(6) };
    expect(replayWearer(profileOf(), s.inputs, window)).toEqual([]);
  });
});

describe('bad input is refused naming the field', () => {
  it.each([
    [{ thresholds: { apsiRisk: 11 } }, 'thresholds.apsiRisk must be at most 10'],
    [{ heatStrainModel: 'PSI' }, 'heatStrainModel must be one of APSI, ECTEMP'],
    [{ thresholdz: {} }, 'unknown field thresholdz'],
  ])('rules %j', (rules, message) => {
    expect(() => parseRules(rules)).toThrow(message);
  });

  it.each([
    [{ from: new Date('x'), to: minute(1) }, '--from must be a date'],
    [{ from: minute(1), to: minute(1) }, '--to must be after --from'],
    [{ from: new Date('2026-01-01'), to: new Date('2026-06-01') }, 'at most 92 days'],
  ])('period %#', async (period, message) => {
    const org = await createOrganization(t.db);
    await expect(
      runBacktest(t.db, { organizationId: org.id, rules: null, ...period }),
    ).rejects.toThrow(message);
  });

  it("an unknown organisation, and rules that contradict a wearer's own settings", async () => {
    await expect(
      runBacktest(t.db, { organizationId: 'nope', from: START, to: minute(1), rules: null }),
    ).rejects.toThrow('--organization nope does not exist');
    const { org } = await scriptedOrganization();
    const rules = parseRules({ thresholds: { apsiRisk: 9.5 } });
    await expect(
      runBacktest(t.db, { organizationId: org.id, from: START, to: minute(60), rules }),
    ).rejects.toThrow(
      new BacktestInputError(
        'rules conflict with the settings of Hot Hana: thresholds.apsiRisk must not exceed thresholds.apsiCritical',
      ),
    );
  });

  it('the command refuses missing arguments before touching a database', async () => {
    await expect(backtestCommand(['--to', '2026-11-01'])).rejects.toThrow('--from is required');
    await expect(backtestCommand(['--from', 'x', '--bogus'])).rejects.toThrow(
      "Unknown option '--bogus'",
    );
  });
});
