import { describe, expect, it, vi } from 'vitest';
import { compactDate, formatDate, formatDateTime, formatTime, sleepNightOf } from './date-time.js';

const AT = '2026-11-22T10:26:00Z'; // 19:26 in Tokyo

describe('date and time formats (one per language, 24-hour)', () => {
  it.each([
    ['ja', '2026/11/22 19:26'],
    ['en', '22 Nov 2026, 19:26'],
  ] as const)('%s: %s', (lng, expected) => {
    expect(formatDateTime(AT, lng, 'Asia/Tokyo')).toBe(expected);
  });

  it('pads the Japanese month and day, not the English day; the hour is 24-hour with two digits', () => {
    const early = '2026-01-04T23:05:00Z'; // 08:05 on 5 January in Tokyo
    expect(formatDateTime(early, 'ja', 'Asia/Tokyo')).toBe('2026/01/05 08:05');
    expect(formatDateTime(early, 'en', 'Asia/Tokyo')).toBe('5 Jan 2026, 08:05');
    expect(formatDateTime('2026-01-04T15:00:00Z', 'en', 'Asia/Tokyo')).toBe('5 Jan 2026, 00:00');
  });

  it('takes the time zone it is given (the organisation, not UTC)', () => {
    expect(formatDate('2026-11-22T20:00:00Z', 'ja', 'Asia/Tokyo')).toBe('2026/11/23');
    expect(formatDate('2026-11-22T20:00:00Z', 'ja', 'UTC')).toBe('2026/11/22');
    expect(compactDate('2026-11-22T20:00:00Z', 'Asia/Tokyo')).toBe('20261123');
    expect(formatTime(AT, 'Asia/Tokyo')).toBe('19:26');
  });

  it.each([
    'Asia/Tokyo',
    'America/New_York', // daylight saving in the northern summer
    'Australia/Lord_Howe', // a half-hour shift in the southern summer
    'Asia/Kathmandu', // +05:45
  ])('formats in the runtime zone (%s) from the date itself, as Intl does for it', (zone) => {
    // The runtime's zone is the process's TZ (this machine's and CI's is UTC, which has no rule to
    // get wrong): set it for this test, as a browser in that zone has it.
    vi.stubEnv('TZ', zone);
    try {
      // The zone took effect (none of these is UTC in January).
      expect(new Date('2026-01-15T00:00:00Z').getTimezoneOffset()).not.toBe(0);
      expectSameAsIntl(zone);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

function expectSameAsIntl(zone: string): void {
  // Across a year, both halves of any daylight-saving rule, midnight and single digits.
  for (let m = 0; m < 12; m++) {
    for (const at of [
      `2026-${String(m + 1).padStart(2, '0')}-04T23:05:00Z`,
      `2026-${String(m + 1).padStart(2, '0')}-15T00:00:00Z`,
    ]) {
      for (const lng of ['ja', 'en'] as const) {
        expect(formatDateTime(at, lng), `${at} ${lng}`).toBe(formatDateTime(at, lng, zone));
        expect(formatDate(at, lng)).toBe(formatDate(at, lng, zone));
      }
      expect(formatTime(at)).toBe(formatTime(at, zone));
      expect(compactDate(at)).toBe(compactDate(at, zone));
    }
  }
  expect(() => formatDateTime('not a date', 'ja')).toThrow(RangeError);
}

describe('sleepNightOf: a night is dated by the day it started (docs/sleep-nights.md)', () => {
  it.each([
    ['2026-12-01T23:00:00+09:00', '2026-12-01'],
    ['2026-12-02T01:00:00+09:00', '2026-12-01'],
    ['2026-12-02T11:59:00+09:00', '2026-12-01'],
    ['2026-12-02T12:00:00+09:00', '2026-12-02'],
    ['2027-01-01T03:00:00+09:00', '2026-12-31'],
    ['2026-03-01T02:00:00+09:00', '2026-02-28'],
  ])('%s in Tokyo is the night of %s', (at, night) => {
    expect(sleepNightOf(at, 'Asia/Tokyo')).toBe(night);
  });
});
