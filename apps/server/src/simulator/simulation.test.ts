import { READING_LIMITS, SLEEP_STAGE_CODES, STRESS_LEVELS } from '@wearable/domain';
import { braceletReading, deviceEvent, environmentReading } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { paceLimit } from './physiology.js';
import { defaultShiftPlan } from './shift-plan.js';
import { type OutboundBatch, Simulation, type SimulationOptions } from './simulation.js';

const MONDAY = Date.parse('2026-07-06T00:00:00+09:00');
const HOUR = 3_600_000;

function world(overrides: Partial<SimulationOptions> = {}): Simulation {
  return new Simulation({
    seed: 7,
    start: new Date(MONDAY),
    eventsPerHour: 0,
    gateways: [
      { gatewayId: 'site', credential: 'c', serialNumbers: ['S1', 'S2', 'S3'] },
      { gatewayId: 'home', credential: 'c', serialNumbers: ['H1', 'H2'] },
    ],
    ...overrides,
  });
}

/** Everything a simulation sends from its start up to `hours` later. */
function collect(sim: Simulation, hours: number, stepHours = 1): OutboundBatch[] {
  const out: OutboundBatch[] = [];
  for (let h = stepHours; h <= hours; h += stepHours)
    out.push(...sim.advanceTo(new Date(MONDAY + h * HOUR)));
  return out;
}
const readings = (batches: OutboundBatch[]) => batches.flatMap((b) => b.readings);
const localHour = (iso: string) => new Date(Date.parse(iso) + 9 * HOUR).getUTCHours();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('simulation model', () => {
  it('is deterministic for a seed and start time, however the clock is stepped', () => {
    const a = collect(world(), 24, 1).flatMap((b) => [
      ...b.readings,
      ...b.environment,
      ...b.events,
    ]);
    const b = collect(world(), 24, 6).flatMap((b) => [
      ...b.readings,
      ...b.environment,
      ...b.events,
    ]);
    const sortKey = (x: { at: string }) => x.at + JSON.stringify(x);
    expect(a.length).toBeGreaterThan(1000);
    expect(a.map(sortKey).sort()).toEqual(b.map(sortKey).sort());
    const other = collect(world({ seed: 8 }), 24).flatMap((b) => b.readings);
    expect(other.map((r) => r.heartRate)).not.toEqual(
      readings(collect(world(), 24)).map((r) => r.heartRate),
    );
  });

  it('keeps every item inside the protocol and its ranges, events included', () => {
    const batches = collect(world({ eventsPerHour: 30 }), 24, 2);
    for (const b of batches) {
      for (const r of b.readings) {
        expect(braceletReading.safeParse(r).success).toBe(true);
        if (r.heartRate !== undefined) {
          expect(r.heartRate).toBeGreaterThanOrEqual(READING_LIMITS.heartRate.min);
          expect(r.heartRate).toBeLessThanOrEqual(READING_LIMITS.heartRate.max);
        }
        if (r.skinTemperature !== undefined) {
          expect(r.skinTemperature).toBeGreaterThanOrEqual(READING_LIMITS.temperature.min);
          expect(r.skinTemperature).toBeLessThanOrEqual(READING_LIMITS.temperature.max);
        }
        if (r.sleepStage !== undefined) expect(SLEEP_STAGE_CODES).toContain(r.sleepStage);
        if (r.stressLevel !== undefined) expect(STRESS_LEVELS).toContain(r.stressLevel);
        expect(r.battery).toBeGreaterThanOrEqual(0);
        expect(r.battery).toBeLessThanOrEqual(100);
      }
      for (const e of b.environment) expect(environmentReading.safeParse(e).success).toBe(true);
      for (const e of b.events) expect(deviceEvent.safeParse(e).success).toBe(true);
    }
  });

  it('never releases an item measured after the clock it was advanced to', () => {
    const sim = world();
    const t = new Date(MONDAY + 90 * 60_000 + 17_000);
    for (const b of sim.advanceTo(t)) {
      for (const item of [...b.readings, ...b.environment, ...b.events]) {
        expect(Date.parse(item.at)).toBeLessThanOrEqual(t.getTime());
      }
    }
  });

  it('sleeps at night and works in the day', () => {
    const rs = readings(collect(world(), 24)).filter((r) => r.serialNumber.startsWith('S'));
    const night = rs.filter((r) => localHour(r.at) >= 1 && localHour(r.at) < 4);
    const work = rs.filter((r) => localHour(r.at) >= 9 && localHour(r.at) < 12);
    expect(night.every((r) => r.sleepStage !== undefined)).toBe(true);
    expect(work.every((r) => r.sleepStage === undefined)).toBe(true);
    // Deep, light and restless sleep and brief awakenings all occur in a night.
    expect(new Set(night.map((r) => r.sleepStage))).toEqual(new Set([1, 2, 3, 4]));
    expect(mean(work.map((r) => r.heartRate!))).toBeGreaterThan(
      mean(night.map((r) => r.heartRate!)) + 25,
    );
    expect(mean(work.map((r) => r.steps!))).toBeGreaterThan(30);
    expect(night.every((r) => r.steps === 0)).toBe(true);
  });

  it('gives the outdoor site a hot afternoon and the care home a mild day', () => {
    const env = collect(world(), 24).flatMap((b) =>
      b.environment.map((e) => ({ ...e, gatewayId: b.gatewayId })),
    );
    const site = env.filter((e) => e.gatewayId === 'site');
    const home = env.filter((e) => e.gatewayId === 'home');
    const at = (list: typeof env, hour: number) =>
      mean(list.filter((e) => localHour(e.at) === hour).map((e) => e.wbgt!));
    expect(at(site, 14)).toBeGreaterThan(at(site, 4) + 3);
    // The day warms into the severe level (28-31) in the morning and danger (31+) after noon.
    expect(at(site, 5)).toBeLessThan(28);
    expect(at(site, 10)).toBeGreaterThanOrEqual(28);
    for (const hour of [13, 14, 15]) expect(at(site, hour)).toBeGreaterThanOrEqual(31);
    expect(Math.max(...site.map((e) => e.wbgt!))).toBeLessThan(35);
    for (const e of home) {
      expect(e.wbgt).toBeGreaterThan(21);
      expect(e.wbgt).toBeLessThan(26);
    }
  });

  it('respects each bracelet duty cycle', () => {
    const sim = world({ wearers: { S1: { dutyCycleMinutes: 5 }, H1: { dutyCycleMinutes: 10 } } });
    const rs = readings(collect(sim, 4));
    const count = (serial: string) =>
      rs.filter((r) => r.serialNumber === serial && Date.parse(r.at) < MONDAY + 4 * HOUR).length;
    expect(count('S1')).toBe(48);
    expect(count('H1')).toBe(24);
    expect(count('S2')).toBe(240);
  });

  it('a heat episode raises the site WBGT past 31 and the wearer heart rate', () => {
    const sim = world();
    collect(sim, 10); // 10:00 local, a working morning
    const before = readings(sim.advanceTo(new Date(MONDAY + 10.25 * HOUR))).filter(
      (r) => r.serialNumber === 'S2',
    );
    sim.trigger('heat-episode', 'S2', 30);
    const during = sim.advanceTo(new Date(MONDAY + 10.25 * HOUR + 25 * 60_000));
    const hr = (rs: OutboundBatch['readings']) =>
      mean(rs.filter((r) => r.serialNumber === 'S2').map((r) => r.heartRate!));
    const late = readings(during).filter(
      (r) => Date.parse(r.at) > MONDAY + 10.25 * HOUR + 12 * 60_000,
    );
    expect(hr(late)).toBeGreaterThan(hr(before) + 20);
    const siteEnv = during.find((b) => b.gatewayId === 'site')!.environment;
    expect(Math.max(...siteEnv.map((e) => e.wbgt!))).toBeGreaterThanOrEqual(31);
  });

  it('sends SOS and fall events, removal and put-back, and a silent gateway sends nothing', () => {
    const sim = world();
    collect(sim, 10);
    sim.trigger('gateway-silent', 'home', 15);
    const first = sim.advanceTo(new Date(MONDAY + 10 * HOUR + 2 * 60_000));
    sim.trigger('sos', 'S1');
    sim.trigger('fall', 'H1');
    sim.trigger('removed', 'S3', 10);
    const batches = [...first, ...sim.advanceTo(new Date(MONDAY + 10.5 * HOUR))];
    const events = batches.flatMap((b) => b.events.map((e) => `${e.serialNumber}:${e.type}`));
    expect(events).toContain('S1:SOS');
    expect(events).toEqual(expect.arrayContaining(['S3:REMOVED', 'S3:WORN']));
    // The fall happened while the home gateway was silent: lost with its uplink.
    expect(events).not.toContain('H1:FALL');
    const home = batches.filter((b) => b.gatewayId === 'home').flatMap((b) => b.readings);
    const silent = home.filter(
      (r) =>
        Date.parse(r.at) >= MONDAY + 10 * HOUR + 60_000 &&
        Date.parse(r.at) < MONDAY + 10 * HOUR + 15 * 60_000,
    );
    expect(silent).toEqual([]);
    expect(home.length).toBeGreaterThan(20);
    const s3 = readings(batches).filter((r) => r.serialNumber === 'S3');
    expect(s3.filter((r) => r.worn === false).length).toBeGreaterThanOrEqual(9);
    expect(s3.filter((r) => r.worn === false).every((r) => r.heartRate === undefined)).toBe(true);
  });

  it('random events happen at roughly the configured rate and are reported', () => {
    const seen: string[] = [];
    const sim = world({ eventsPerHour: 12, onEvent: (e) => seen.push(e.kind) });
    collect(sim, 24);
    expect(seen.length).toBeGreaterThan(12 * 24 * 0.6);
    expect(seen.length).toBeLessThan(12 * 24 * 1.4);
    expect(new Set(seen).size).toBeGreaterThanOrEqual(5);
  });
});

describe("the demo's shift plan", () => {
  const serials = Array.from({ length: 40 }, (_, i) => `W${i + 1}`);
  const plan = defaultShiftPlan(serials);
  const shift = () => {
    const sim = new Simulation({
      seed: 7,
      start: new Date(MONDAY + 8 * HOUR),
      eventsPerHour: 0,
      gateways: [{ gatewayId: 'site', credential: 'c', serialNumbers: serials, site: 'outdoor' }],
      plan,
    });
    const batches = sim.advanceTo(new Date(MONDAY + 17 * HOUR));
    return { sim, batches };
  };
  const localMinute = (iso: string) => (Date.parse(iso) - MONDAY) / 60_000;

  it('most workers cope through the hot day: their heart rates stay below their pace limit', () => {
    const { sim, batches } = shift();
    // Everyone but the strained, the SOS, the fall and the one out of range.
    const scripted = new Set(plan.filter((p) => p.kind !== 'removed').map((p) => p.serialNumber));
    const coping = sim.wearers.filter((w) => !scripted.has(w.profile.serialNumber));
    expect(coping.length).toBe(34);
    for (const w of coping) {
      const hr = readings(batches)
        .filter((r) => r.serialNumber === w.profile.serialNumber && r.heartRate !== undefined)
        .map((r) => r.heartRate!);
      expect(hr.length).toBeGreaterThan(100);
      // Under the engine's sustained (85 % of max) and heat (180 - age) lines, with a margin.
      expect(Math.max(...hr)).toBeLessThan(
        Math.min(0.85 * w.profile.maxHeartRate, 180 - w.profile.age),
      );
      expect(mean(hr)).toBeLessThan(paceLimit(w.profile));
    }
  });

  it('the strained workers climb past 85 % of their maximum heart rate in the afternoon', () => {
    const { sim, batches } = shift();
    for (const item of plan.filter((p) => p.kind === 'strain')) {
      const w = sim.wearers.find((x) => x.profile.serialNumber === item.serialNumber)!;
      const hr = readings(batches)
        .filter((r) => r.serialNumber === item.serialNumber && r.heartRate !== undefined)
        .filter((r) => localMinute(r.at) >= item.minuteOfDay + 75 && localMinute(r.at) < 17 * 60)
        .map((r) => r.heartRate!);
      expect(hr.length).toBeGreaterThan(10);
      expect(mean(hr)).toBeGreaterThan(0.85 * w.profile.maxHeartRate);
    }
  });

  it('plays the SOS, the fall, the bracelet taken off and the worker out of range at their times', () => {
    const { batches } = shift();
    const events = batches.flatMap((b) => b.events);
    for (const item of plan.filter((p) => p.kind === 'sos' || p.kind === 'fall')) {
      const event = events.find(
        (e) => e.serialNumber === item.serialNumber && e.type === item.kind.toUpperCase(),
      );
      expect(event && Math.floor(localMinute(event.at))).toBe(item.minuteOfDay);
    }
    const removed = plan.find((p) => p.kind === 'removed')!;
    expect(events).toContainEqual(
      expect.objectContaining({ serialNumber: removed.serialNumber, type: 'REMOVED' }),
    );
    const away = plan.find((p) => p.kind === 'out-of-range')!;
    const heard = readings(batches)
      .filter((r) => r.serialNumber === away.serialNumber)
      .map((r) => localMinute(r.at));
    const during = heard.filter(
      (m) => m >= away.minuteOfDay + 1 && m < away.minuteOfDay + away.durationMinutes!,
    );
    expect(during).toEqual([]);
    expect(heard.some((m) => m >= away.minuteOfDay + away.durationMinutes! + 1)).toBe(true);
  });
});

describe('simulation started at night', () => {
  it('finds its wearers already asleep, not lying awake after bedtime', () => {
    const sim = world({ start: new Date(MONDAY + 2 * HOUR) });
    const rs = readings(sim.advanceTo(new Date(MONDAY + 2.25 * HOUR))).filter(
      (r) => r.serialNumber === 'S1',
    );
    expect(rs.length).toBeGreaterThan(10);
    expect(rs.slice(0, 10).filter((r) => r.sleepStage === 4).length).toBeLessThan(5);
  });
});
