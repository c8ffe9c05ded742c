import { describe, expect, it } from 'vitest';
import {
  compareRound,
  isoWithOffset,
  nightWindow,
  type RoundMinute,
  type RoundOrderable,
  roundStateOf,
} from './night-round.js';

const now = new Date('2026-12-01T15:00:00Z'); // 00:00 in Tokyo
const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();
/** Minutes from `fromAgo` to `toAgo` minutes ago, each the same. */
const run = (fromAgo: number, toAgo: number, m: Omit<RoundMinute, 'at'>): RoundMinute[] =>
  Array.from({ length: fromAgo - toAgo + 1 }, (_, i) => ({ ...m, at: ago(fromAgo - i) }));
const asleep = { sleepStage: 2, worn: true, steps: 0 };
const awake = { sleepStage: 4, worn: true, steps: 0 };

describe('roundStateOf: the state a round finds a resident in, and since when', () => {
  it('is ASLEEP since the first minute of the trailing run of sleep', () => {
    const minutes = [...run(120, 61, awake), ...run(60, 1, asleep)];
    expect(roundStateOf({ lastSeenAt: ago(1), worn: true, sleepStage: 2 }, minutes, now)).toEqual({
      state: 'ASLEEP',
      since: ago(60),
    });
  });

  it('is AWAKE after sleep, since the first awake minute', () => {
    const minutes = [...run(120, 11, asleep), ...run(10, 1, awake)];
    expect(roundStateOf({ lastSeenAt: ago(1), worn: true, sleepStage: 4 }, minutes, now)).toEqual({
      state: 'AWAKE',
      since: ago(10),
    });
  });

  it('is UP when steps were counted in the last 5 minutes; awake minutes between steps belong to it', () => {
    const minutes = [
      ...run(60, 21, asleep),
      ...run(20, 20, { ...awake, steps: 12 }),
      ...run(19, 17, awake),
      ...run(16, 2, { ...awake, steps: 5 }),
    ];
    expect(roundStateOf({ lastSeenAt: ago(2), worn: true, sleepStage: 4 }, minutes, now)).toEqual({
      state: 'UP',
      since: ago(20),
    });
  });

  it('is not UP for steps older than 5 minutes', () => {
    const minutes = [...run(30, 10, { ...awake, steps: 3 }), ...run(9, 1, awake)];
    expect(
      roundStateOf({ lastSeenAt: ago(1), worn: true, sleepStage: 4 }, minutes, now).state,
    ).toBe('AWAKE');
  });

  it('is NOT_WORN when the bracelet says so, whatever the sleep stage', () => {
    const minutes = [
      ...run(60, 31, asleep),
      ...run(30, 1, { sleepStage: 2, worn: false, steps: 0 }),
    ];
    expect(roundStateOf({ lastSeenAt: ago(1), worn: false, sleepStage: 2 }, minutes, now)).toEqual({
      state: 'NOT_WORN',
      since: ago(30),
    });
  });

  it('is NOT_HEARD after 15 minutes without a reading, since the last one; never heard has no since', () => {
    expect(roundStateOf({ lastSeenAt: ago(16), worn: true, sleepStage: 2 }, [], now)).toEqual({
      state: 'NOT_HEARD',
      since: ago(16),
    });
    expect(roundStateOf({ lastSeenAt: ago(15), worn: true, sleepStage: 2 }, [], now).state).toBe(
      'ASLEEP',
    );
    expect(roundStateOf({ lastSeenAt: null, worn: null, sleepStage: null }, [], now)).toEqual({
      state: 'NOT_HEARD',
      since: null,
    });
  });

  it('ends the run at a gap longer than 15 minutes, and skips minutes that say nothing', () => {
    const minutes = [
      ...run(200, 100, asleep),
      ...run(60, 31, asleep),
      ...run(30, 11, { sleepStage: null, worn: null, steps: 0 }),
      ...run(10, 1, asleep),
    ];
    expect(
      roundStateOf({ lastSeenAt: ago(1), worn: true, sleepStage: 1 }, minutes, now).since,
    ).toBe(ago(60));
  });

  it('has no since without minutes (the state from the latest values only)', () => {
    expect(roundStateOf({ lastSeenAt: ago(2), worn: true, sleepStage: null }, [], now)).toEqual({
      state: 'AWAKE',
      since: null,
    });
  });
});

describe('compareRound: what needs a visit first', () => {
  const row = (
    uid: string,
    state: RoundOrderable['state'],
    extra: Partial<RoundOrderable> = {},
  ): RoundOrderable => ({ uid, name: uid, state, openAlertLevels: [], ...extra });

  it('puts an open EMERGENCY or CRITICAL alert first, then not heard, not worn, awake or up, asleep', () => {
    const rows = [
      row('a', 'ASLEEP'),
      row('b', 'AWAKE'),
      row('c', 'NOT_WORN'),
      row('d', 'ASLEEP', { openAlertLevels: ['CRITICAL'] }),
      row('e', 'UP'),
      row('f', 'NOT_HEARD'),
      row('g', 'ASLEEP', { openAlertLevels: ['CAUTION'] }),
      row('h', 'AWAKE', { openAlertLevels: ['EMERGENCY'] }),
    ];
    const order = rows.sort(compareRound(new Intl.Collator('ja'))).map((r) => r.uid);
    expect(order).toEqual(['d', 'h', 'f', 'c', 'b', 'e', 'a', 'g']);
  });

  it('orders ties by how the name is read', () => {
    const rows = [
      row('1', 'ASLEEP', { name: '渡辺 花子', nameReading: 'わたなべ はなこ' }),
      row('2', 'ASLEEP', { name: '青木 一郎', nameReading: 'あおき いちろう' }),
      row('3', 'ASLEEP', { name: '加藤 次郎', nameReading: 'かとう じろう' }),
    ];
    expect(rows.sort(compareRound(new Intl.Collator('ja'))).map((r) => r.uid)).toEqual([
      '2',
      '3',
      '1',
    ]);
  });
});

describe('nightWindow and isoWithOffset', () => {
  it('covers local noon to the next local noon', () => {
    expect(nightWindow('2026-12-01', 'Asia/Tokyo')).toEqual({
      from: new Date('2026-12-01T03:00:00Z'),
      to: new Date('2026-12-02T03:00:00Z'),
    });
    // Across the end of summer time in New York (1 Nov 2026): the night is 25 hours long.
    const ny = nightWindow('2026-10-31', 'America/New_York');
    expect(ny.from.toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(ny.to.toISOString()).toBe('2026-11-01T17:00:00.000Z');
  });

  it('prints the instant in the zone with its offset', () => {
    expect(isoWithOffset('2026-12-01T14:15:30.500Z', 'Asia/Tokyo')).toBe(
      '2026-12-01T23:15:30+09:00',
    );
    expect(isoWithOffset('2026-12-01T14:15:00Z', 'America/New_York')).toBe(
      '2026-12-01T09:15:00-05:00',
    );
    expect(isoWithOffset('2026-12-01T14:15:00Z', 'UTC')).toBe('2026-12-01T14:15:00+00:00');
  });
});
