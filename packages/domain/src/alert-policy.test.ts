import { describe, expect, it } from 'vitest';
import {
  ALERT_POLICY_DEFAULTS,
  alertPolicy,
  alertPolicyPatch,
  manDownOn,
  resolveAlertPolicy,
} from './alert-policy.js';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('the alert policy: man-down (issue 16)', () => {
  it('is off by default', () => {
    expect(ALERT_POLICY_DEFAULTS.manDownMinutes).toBe(0);
    expect(manDownOn(resolveAlertPolicy(null))).toBe(false);
    expect(manDownOn(resolveAlertPolicy({ recoveryMinutes: 5 }))).toBe(false);
  });

  it('is on with 1..60 minutes', () => {
    for (const minutes of [1, 5, 60]) {
      const parsed = alertPolicyPatch.safeParse({ manDownMinutes: minutes });
      expect(parsed.success).toBe(true);
      expect(manDownOn({ manDownMinutes: minutes })).toBe(true);
    }
    expect(alertPolicyPatch.safeParse({ manDownMinutes: 0 }).success).toBe(true);
  });

  it('refuses minutes out of range or not whole, naming the setting', () => {
    expect(messages(alertPolicyPatch.safeParse({ manDownMinutes: 61 }))).toEqual([
      'manDownMinutes must be at most 60 minutes',
    ]);
    expect(messages(alertPolicyPatch.safeParse({ manDownMinutes: -1 }))).toEqual([
      'manDownMinutes must be at least 0 minutes',
    ]);
    expect(messages(alertPolicyPatch.safeParse({ manDownMinutes: 2.5 }))).toEqual([
      'manDownMinutes must be a whole number of minutes',
    ]);
    expect(messages(alertPolicyPatch.safeParse({ manDownMinutes: 'on' }))).toEqual([
      'manDownMinutes must be a number of minutes',
    ]);
  });

  it('is part of the whole policy, and a stored value out of bounds falls back to off', () => {
    expect(alertPolicy.safeParse({ ...ALERT_POLICY_DEFAULTS, manDownMinutes: 10 }).success).toBe(
      true,
    );
    expect(resolveAlertPolicy({ manDownMinutes: 10 }).manDownMinutes).toBe(10);
    expect(resolveAlertPolicy({ manDownMinutes: 500 }).manDownMinutes).toBe(0);
    expect(resolveAlertPolicy({ manDownMinutes: 'ten' }).manDownMinutes).toBe(0);
  });
});
