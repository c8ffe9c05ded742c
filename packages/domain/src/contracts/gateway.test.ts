import { describe, expect, it } from 'vitest';
import { batchResult, deviceEvent, fallCause } from './gateway.js';

const AT = '2026-11-26T09:00:00+09:00';
const fall = (cause: unknown) => ({ serialNumber: 'PHONE-1', type: 'FALL', at: AT, cause });

/** The first issue as the server's refusal reason writes it: `path: message`. */
function reason(raw: unknown): string | null {
  const parsed = deviceEvent.safeParse(raw);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe("a device event's FALL cause (issue 16, man-down)", () => {
  it('takes impact, man-down with its minutes, or no cause at all', () => {
    expect(reason(fall({ trigger: 'impact' }))).toBeNull();
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 5 }))).toBeNull();
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 1 }))).toBeNull();
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 60 }))).toBeNull();
    expect(reason({ serialNumber: 'PHONE-1', type: 'FALL', at: AT })).toBeNull();
    expect(deviceEvent.parse(fall({ trigger: 'man-down', stillMinutes: 5 })).cause).toEqual({
      trigger: 'man-down',
      stillMinutes: 5,
    });
  });

  it('refuses an unknown trigger, naming the field', () => {
    expect(reason(fall({ trigger: 'lying' }))).toBe(
      "cause.trigger: must be one of 'impact', 'man-down'",
    );
    expect(reason(fall({}))).toBe("cause.trigger: must be one of 'impact', 'man-down'");
  });

  it('refuses minutes out of 1..60 or not whole, naming the field', () => {
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 0 }))).toBe(
      'cause.stillMinutes: must be at least 1 minute',
    );
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 61 }))).toBe(
      'cause.stillMinutes: must be at most 60 minutes',
    );
    expect(reason(fall({ trigger: 'man-down', stillMinutes: 2.5 }))).toBe(
      'cause.stillMinutes: must be a whole number of minutes',
    );
    expect(reason(fall({ trigger: 'man-down', stillMinutes: '5' }))).toBe(
      'cause.stillMinutes: must be a number of minutes',
    );
  });

  it('needs the minutes for man-down and refuses them for an impact', () => {
    expect(reason(fall({ trigger: 'man-down' }))).toBe(
      "cause.stillMinutes: is required when trigger is 'man-down'",
    );
    expect(reason(fall({ trigger: 'impact', stillMinutes: 3 }))).toBe(
      "cause.stillMinutes: is only for trigger 'man-down'",
    );
  });

  it('refuses other keys and a cause on any event but FALL', () => {
    expect(reason(fall({ trigger: 'impact', text: 'no movement for 5 min' }))).toMatch(
      /^cause: Unrecognized key/,
    );
    expect(
      reason({ serialNumber: 'BR-1', type: 'SOS', at: AT, cause: { trigger: 'impact' } }),
    ).toBe('cause: is only for FALL events');
    expect(fallCause.safeParse('no movement for 5 min').success).toBe(false);
  });
});

describe("a batch result's gateway settings", () => {
  it('carry man-down minutes 0..60 for a phone', () => {
    const base = { accepted: 1, duplicates: 0, rejected: [] };
    expect(batchResult.safeParse({ ...base, gatewaySettings: { manDownMinutes: 5 } }).success).toBe(
      true,
    );
    expect(batchResult.safeParse({ ...base, gatewaySettings: { manDownMinutes: 0 } }).success).toBe(
      true,
    );
    expect(
      batchResult.safeParse({ ...base, gatewaySettings: { manDownMinutes: 61 } }).success,
    ).toBe(false);
  });
});
