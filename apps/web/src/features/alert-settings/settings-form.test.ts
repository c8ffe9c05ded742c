import { BUSINESS_SCHEDULE, DEFAULT_ALERT_SETTINGS, DEFAULT_SCHEDULE } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { presetOf, presetSchedule } from '../../lib/schedule-presets';
import { formOf, type SettingsForm, validateForm } from './settings-form';

const form = (patch: Partial<SettingsForm> = {}): SettingsForm => ({
  ...formOf(DEFAULT_ALERT_SETTINGS),
  ...patch,
});
const errorsOf = (f: SettingsForm) => validateForm(f).errors;

describe('schedule presets', () => {
  it('every day 00:00-23:59 and business weekdays 09:00-18:00 with the weekend off, from the domain', () => {
    expect(presetSchedule('everyDay')).toEqual(DEFAULT_SCHEDULE);
    expect(presetSchedule('business')).toEqual(BUSINESS_SCHEDULE);
    const business = presetSchedule('business');
    expect(business.monday).toEqual({ enabled: true, startTime: '09:00', endTime: '18:00' });
    expect(business.saturday.enabled).toBe(false);
    expect(business.sunday.enabled).toBe(false);
  });

  it('hands out copies (editing one never changes the preset) and recognises a schedule equal to a preset', () => {
    const copy = presetSchedule('everyDay');
    copy.monday.enabled = false;
    expect(DEFAULT_SCHEDULE.monday.enabled).toBe(true);
    expect(presetOf(copy)).toBeNull();
    expect(presetOf(presetSchedule('business'))).toBe('business');
    expect(presetOf(DEFAULT_SCHEDULE)).toBe('everyDay');
  });
});

describe('validateForm (the domain PATCH schema)', () => {
  it('sends the defaults as they are, an empty upper bound as null (the wearer maximum)', () => {
    const result = validateForm(form());
    expect(result.errors).toBeNull();
    expect(result.patch).toMatchObject({
      heartRateLower: 40,
      heartRateUpper: null,
      schedule: DEFAULT_SCHEDULE,
    });
    expect(validateForm(form({ heartRateLower: '50', heartRateUpper: '150' })).patch).toMatchObject(
      { heartRateLower: 50, heartRateUpper: 150 },
    );
  });

  it('bounds outside 40..220, not whole or not numbers get the range message on that field', () => {
    const range = { key: 'settings.errors.heartRateRange', values: { min: 40, max: 220 } };
    expect(errorsOf(form({ heartRateLower: '39' }))).toEqual({ heartRateLower: range });
    expect(errorsOf(form({ heartRateUpper: '221' }))).toEqual({ heartRateUpper: range });
    expect(errorsOf(form({ heartRateLower: 'abc' }))).toEqual({ heartRateLower: range });
    expect(errorsOf(form({ heartRateLower: '' }))).toEqual({ heartRateLower: range });
    expect(errorsOf(form({ heartRateUpper: '120.5' }))).toEqual({ heartRateUpper: range });
  });

  it('an upper bound not above the lower one is refused on the upper field', () => {
    expect(errorsOf(form({ heartRateLower: '120', heartRateUpper: '120' }))).toEqual({
      heartRateUpper: { key: 'settings.errors.upperAboveLower' },
    });
    expect(errorsOf(form({ heartRateLower: '121', heartRateUpper: '120' }))).not.toBeNull();
  });

  it('a bad time is named by weekday and field', () => {
    const schedule = presetSchedule('everyDay');
    schedule.tuesday.endTime = '24:00';
    schedule.friday.startTime = '';
    expect(errorsOf(form({ schedule }))).toEqual({
      'schedule.tuesday.endTime': { key: 'settings.errors.time' },
      'schedule.friday.startTime': { key: 'settings.errors.time' },
    });
  });
});
