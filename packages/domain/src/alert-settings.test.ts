import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_SETTINGS,
  alertSettings,
  alertSettingsPatch,
  mergeAlertSettings,
  resolveAlertSettings,
} from './alert-settings.js';
import { ALERT_TYPES } from './alerts.js';
import { BUSINESS_SCHEDULE, DEFAULT_SCHEDULE } from './schedules.js';

/** The messages of a failed parse, as the API's 400 would show them. */
function issuesOf(
  input: unknown,
  schema: typeof alertSettings | typeof alertSettingsPatch = alertSettings,
) {
  const r = schema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('alertSettings defaults', () => {
  it('empty input gives the product defaults', () => {
    expect(alertSettings.parse({})).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(DEFAULT_ALERT_SETTINGS).toMatchObject({
      heartRateLower: 40,
      heartRateUpper: null,
      sustainedMinutes: 8,
      schedule: DEFAULT_SCHEDULE,
      sleepWindow: { start: '22:00', end: '06:00' },
      cooldownMinutes: 10,
      heatStrainModel: 'APSI',
      thresholds: {
        wbgtHigh: 31,
        wbgtCaution: 28,
        coreTempRisk: 38.0,
        coreTempCritical: 38.5,
        psiCritical: 7,
        apsiRisk: 7,
        apsiCritical: 9,
        awakeMinutes: 5,
        nonWearingMinutes: 5,
        disconnectionCycles: 3,
      },
    });
    for (const t of ALERT_TYPES) expect(DEFAULT_ALERT_SETTINGS.enabled[t]).toBe(true);
  });

  it('a partial input keeps what it says and completes the rest, nested too', () => {
    const s = alertSettings.parse({
      heartRateUpper: 170,
      enabled: { HEATSTROKE: false },
      thresholds: { wbgtHigh: 33 },
      schedule: BUSINESS_SCHEDULE,
    });
    expect(s.heartRateUpper).toBe(170);
    expect(s.enabled.HEATSTROKE).toBe(false);
    expect(s.enabled.SOS_CALL).toBe(true);
    expect(s.thresholds).toMatchObject({ wbgtHigh: 33, wbgtCaution: 28 });
    expect(s.schedule.saturday.enabled).toBe(false);
  });
});

describe('alertSettings refuses bad values, naming the field', () => {
  it.each([
    [{ heartRateLower: 39 }, 'heartRateLower', 'heartRateLower must be at least 40'],
    [{ heartRateUpper: 221 }, 'heartRateUpper', 'heartRateUpper must be at most 220'],
    [{ heartRateUpper: 39 }, 'heartRateUpper', 'heartRateUpper must be at least 40'],
    [{ heartRateLower: 'x' }, 'heartRateLower', 'heartRateLower must be a number'],
    [
      { heartRateLower: 120, heartRateUpper: 100 },
      'heartRateUpper',
      'heartRateUpper must be greater than heartRateLower',
    ],
    [
      { heartRateLower: 100, heartRateUpper: 100 },
      'heartRateUpper',
      'heartRateUpper must be greater than heartRateLower',
    ],
    [{ sustainedMinutes: 0 }, 'sustainedMinutes', 'sustainedMinutes must be at least 1'],
    [{ sustainedMinutes: 2.5 }, 'sustainedMinutes', 'sustainedMinutes must be a whole number'],
    [{ cooldownMinutes: -1 }, 'cooldownMinutes', 'cooldownMinutes must be at least 0'],
    [
      { enabled: { HEART_RATE: 'yes' } },
      'enabled.HEART_RATE',
      'enabled.HEART_RATE must be true or false',
    ],
    [
      { sleepWindow: { start: '25:00' } },
      'sleepWindow.start',
      'sleepWindow.start must be HH:MM (00:00-23:59)',
    ],
    [
      { thresholds: { psiCritical: 11 } },
      'thresholds.psiCritical',
      'thresholds.psiCritical must be at most 10',
    ],
    [
      { thresholds: { wbgtCaution: 32 } },
      'thresholds.wbgtCaution',
      'thresholds.wbgtCaution must not exceed thresholds.wbgtHigh',
    ],
    [
      { thresholds: { coreTempRisk: 39 } },
      'thresholds.coreTempRisk',
      'thresholds.coreTempRisk must not exceed thresholds.coreTempCritical',
    ],
    [
      { thresholds: { apsiRisk: 9.5 } },
      'thresholds.apsiRisk',
      'thresholds.apsiRisk must not exceed thresholds.apsiCritical',
    ],
    [
      { thresholds: { apsiCritical: 0 } },
      'thresholds.apsiCritical',
      'thresholds.apsiCritical must be at least 1',
    ],
    [{ heatStrainModel: 'PSI' }, 'heatStrainModel', 'heatStrainModel must be one of APSI, ECTEMP'],
    [
      { thresholds: { disconnectionCycles: 0 } },
      'thresholds.disconnectionCycles',
      'thresholds.disconnectionCycles must be at least 1',
    ],
  ])('%j -> %s', (input, path, message) => {
    expect(issuesOf(input)).toContainEqual({ path, message });
  });

  it('refuses unknown keys (a typo is not silently ignored)', () => {
    expect(issuesOf({ heartRateUper: 150 })[0]?.message).toMatch(/heartRateUper/);
    expect(issuesOf({ enabled: { HEAT: true } })[0]?.path).toBe('enabled');
  });

  it('refuses a broken schedule day', () => {
    const bad = {
      ...DEFAULT_SCHEDULE,
      monday: { enabled: true, startTime: '9:00', endTime: '18:00' },
    };
    expect(issuesOf({ schedule: bad })[0]?.path).toBe('schedule.monday.startTime');
  });
});

describe('PATCH and merge', () => {
  it('a patch keeps absent fields absent and merges nested objects', () => {
    const stored = alertSettings.parse({ heartRateUpper: 170, thresholds: { wbgtHigh: 33 } });
    const patch = alertSettingsPatch.parse({
      thresholds: { psiCritical: 8 },
      enabled: { NON_WEARING: false },
    });
    expect(patch).toEqual({ thresholds: { psiCritical: 8 }, enabled: { NON_WEARING: false } });
    const merged = mergeAlertSettings(stored, patch);
    expect(merged.heartRateUpper).toBe(170);
    expect(merged.thresholds).toMatchObject({ wbgtHigh: 33, psiCritical: 8 });
    expect(merged.enabled).toMatchObject({ NON_WEARING: false, HEART_RATE: true });
  });

  it('a patch that conflicts with stored values fails on merge, naming the field', () => {
    const stored = alertSettings.parse({ heartRateUpper: 150 });
    const patch = alertSettingsPatch.parse({ heartRateLower: 160 });
    expect(() => mergeAlertSettings(stored, patch)).toThrow(
      /heartRateUpper must be greater than heartRateLower/,
    );
  });

  it('a patch refuses unknown keys, nested ones too', () => {
    expect(issuesOf({ colour: 'red' }, alertSettingsPatch)[0]?.message).toMatch(/colour/);
    expect(issuesOf({ enabled: { HEAT: true } }, alertSettingsPatch)[0]?.path).toBe('enabled');
    expect(issuesOf({ thresholds: { wbgt: 30 } }, alertSettingsPatch)[0]?.path).toBe('thresholds');
  });

  it('a patch may set heartRateUpper back to null (age formula)', () => {
    expect(alertSettingsPatch.parse({ heartRateUpper: null })).toEqual({ heartRateUpper: null });
  });

  it('a patch with a bad value fails on its own', () => {
    expect(issuesOf({ heartRateLower: 10 }, alertSettingsPatch)).toContainEqual({
      path: 'heartRateLower',
      message: 'heartRateLower must be at least 40',
    });
  });
});

describe('resolveAlertSettings', () => {
  it('upper bound null = the wearer maximum heart rate 208 - 0.7 x age', () => {
    expect(resolveAlertSettings({}, 40).heartRateUpper).toBe(180);
    expect(resolveAlertSettings({}, 20).heartRateUpper).toBe(194);
    expect(resolveAlertSettings(undefined, null)).toMatchObject({
      heartRateUpper: 180,
      age: 40,
      maxHeartRate: 180,
    });
  });
  it('an explicit upper bound wins over the age formula', () => {
    expect(resolveAlertSettings({ heartRateUpper: 150 }, 20).heartRateUpper).toBe(150);
  });
  it('keeps lower < upper when the age formula falls below a high lower bound', () => {
    const r = resolveAlertSettings({ heartRateLower: 150 }, 90); // max 145
    expect(r.heartRateUpper).toBeGreaterThan(r.heartRateLower);
  });
  it('throws on bad stored values', () => {
    expect(() => resolveAlertSettings({ heartRateLower: 10 }, 40)).toThrow(/heartRateLower/);
  });
});
