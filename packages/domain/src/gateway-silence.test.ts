import { describe, expect, it } from 'vitest';
import { gatewayExpectedIntervalMs, gatewaySilenceStep } from './gateway-silence.js';
import { isInhibited } from './notice-policy.js';

const now = new Date('2026-12-01T05:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const step = (o: Partial<Parameters<typeof gatewaySilenceStep>[0]>) =>
  gatewaySilenceStep({
    type: 'STATIONARY',
    lastSeenAt: ago(1),
    longestDutyCycleMinutes: 1,
    openSince: null,
    now,
    ...o,
  });

describe('gateway silence', () => {
  it('the expected interval is 5 minutes, or two duty cycles of the slowest bracelet', () => {
    expect(gatewayExpectedIntervalMs(null)).toBe(5 * 60_000);
    expect(gatewayExpectedIntervalMs(1)).toBe(5 * 60_000);
    expect(gatewayExpectedIntervalMs(10)).toBe(20 * 60_000);
  });

  it.each([
    ['heard a minute ago', {}, 'none'],
    ['silent for its interval', { lastSeenAt: ago(5) }, 'open'],
    [
      '10-minute bracelets: 6 minutes is not yet silence',
      { lastSeenAt: ago(6), longestDutyCycleMinutes: 10 },
      'none',
    ],
    [
      '10-minute bracelets: 20 minutes is',
      { lastSeenAt: ago(20), longestDutyCycleMinutes: 10 },
      'open',
    ],
    ['never heard', { lastSeenAt: null }, 'none'],
    ['a phone gateway', { lastSeenAt: ago(30), type: 'SMARTPHONE' }, 'none'],
    ['last heard two days ago (retired)', { lastSeenAt: ago(48 * 60) }, 'none'],
    ['open and still silent', { lastSeenAt: ago(30), openSince: ago(30) }, 'none'],
    ['open and heard again', { lastSeenAt: ago(0), openSince: ago(30) }, 'close'],
  ] as const)('%s', (_name, o, expected) => {
    expect(step(o)).toBe(expected);
  });

  it('inhibits DISCONNECTION of a silent gateway only', () => {
    const item = { type: 'DISCONNECTION', level: 'DEVICE_STATUS', siteHeatLevel: null } as const;
    expect(isInhibited({ ...item, gatewaySilent: true })).toBe(true);
    expect(isInhibited({ ...item, gatewaySilent: false })).toBe(false);
    expect(isInhibited(item)).toBe(false);
    expect(
      isInhibited({
        type: 'NON_WEARING',
        level: 'DEVICE_STATUS',
        siteHeatLevel: null,
        gatewaySilent: true,
      }),
    ).toBe(false);
    expect(
      isInhibited({
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        siteHeatLevel: null,
        gatewaySilent: true,
      }),
    ).toBe(false);
  });
});
