import { describe, expect, it } from 'vitest';
import { nextOnCall, onCallAt, onCallRota, type OnCallRota } from './on-call.js';

const TZ = 'Asia/Tokyo';
const at = (local: string) => new Date(`${local}+09:00`);
// Japan's holidays used here (the server reads them from @holiday-jp/holiday_jp): 建国記念の日.
const isHoliday = (d: string) => d === '2027-02-11';
const who = (rota: OnCallRota | null, local: string, o = {}) =>
  onCallAt(rota, [], at(local), TZ, o).userIds;

describe('a daily rota', () => {
  const rota: OnCallRota = {
    kind: 'daily',
    startsOn: '2026-12-01',
    handoverTime: '09:00',
    members: ['a', 'b', 'c'],
  };

  it('hands over at the handover time, one day each in turn', () => {
    expect(who(rota, '2026-12-01T09:00:00')).toEqual(['a']);
    expect(who(rota, '2026-12-02T08:59:00')).toEqual(['a']);
    expect(who(rota, '2026-12-02T09:00:00')).toEqual(['b']);
    expect(who(rota, '2026-12-03T23:00:00')).toEqual(['c']);
    expect(who(rota, '2026-12-04T12:00:00')).toEqual(['a']);
    // Before its first day the turns run backwards: the night before is c's.
    expect(who(rota, '2026-12-01T08:00:00')).toEqual(['c']);
  });

  it('says from when until when, and who comes next', () => {
    const now = onCallAt(rota, [], at('2026-12-02T10:00:00'), TZ);
    expect(now.from.toISOString()).toBe(at('2026-12-02T09:00:00').toISOString());
    expect(now.until.toISOString()).toBe(at('2026-12-03T09:00:00').toISOString());
    const next = nextOnCall(rota, [], at('2026-12-02T10:00:00'), TZ);
    expect(next.userIds).toEqual(['c']);
    expect(next.from.toISOString()).toBe(at('2026-12-03T09:00:00').toISOString());
  });

  it('reads the handover in the zone, across a change of daylight saving time', () => {
    const ny: OnCallRota = { ...rota, startsOn: '2027-03-13' };
    const before = onCallAt(ny, [], new Date('2027-03-13T15:00:00Z'), 'America/New_York');
    // 09:00 EST is 14:00Z; the next 09:00 is EDT, 13:00Z.
    expect(before.from.toISOString()).toBe('2027-03-13T14:00:00.000Z');
    expect(before.until.toISOString()).toBe('2027-03-14T13:00:00.000Z');
  });
});

describe('a weekend and holiday turn', () => {
  const rota: OnCallRota = {
    kind: 'daily',
    startsOn: '2027-02-08', // a Monday
    handoverTime: '09:00',
    members: ['a', 'b'],
    holidayMembers: ['h1', 'h2'],
  };

  it('gives weekends and public holidays to their own members, and the weekdays keep their turn', () => {
    const days = ['08', '09', '10', '11', '12', '13', '14', '15'].map(
      (d) => who(rota, `2027-02-${d}T12:00:00`, { isHoliday })[0],
    );
    // 11 February (Thursday) is 建国記念の日: h1's; Saturday h2, Sunday h1; Friday b, as if the holiday were not there.
    expect(days).toEqual(['a', 'b', 'a', 'h1', 'b', 'h2', 'h1', 'a']);
    expect(onCallAt(rota, [], at('2027-02-11T12:00:00'), TZ, { isHoliday }).source).toBe('holiday');
  });

  it('treats the holiday as its weekday when the group says so', () => {
    expect(who(rota, '2027-02-11T12:00:00')).toEqual(['b']);
  });

  it('cuts a weekly turn at the weekend', () => {
    const weekly: OnCallRota = { ...rota, kind: 'weekly' };
    const wed = onCallAt(weekly, [], at('2027-02-10T12:00:00'), TZ, { isHoliday });
    expect(wed.userIds).toEqual(['a']);
    expect(wed.from.toISOString()).toBe(at('2027-02-08T09:00:00').toISOString());
    expect(wed.until.toISOString()).toBe(at('2027-02-11T09:00:00').toISOString());
    expect(who(weekly, '2027-02-12T12:00:00', { isHoliday })).toEqual(['a']);
    expect(who(weekly, '2027-02-15T12:00:00', { isHoliday })).toEqual(['b']);
  });
});

describe('a weekly rota', () => {
  it('hands over on the weekday it started', () => {
    const rota: OnCallRota = {
      kind: 'weekly',
      startsOn: '2026-11-30', // a Monday
      handoverTime: '10:00',
      members: ['a', 'b'],
    };
    expect(who(rota, '2026-12-06T23:00:00')).toEqual(['a']);
    expect(who(rota, '2026-12-07T09:59:00')).toEqual(['a']);
    expect(who(rota, '2026-12-07T10:00:00')).toEqual(['b']);
    expect(who(rota, '2026-12-14T10:00:00')).toEqual(['a']);
  });
});

describe('a shift cycle (日勤 / 夜勤 / 明け / 休み)', () => {
  const rota: OnCallRota = {
    kind: 'shifts',
    startsOn: '2026-12-01',
    handoverTime: '09:00',
    members: ['m0', 'm1', 'm2', 'm3'],
    shiftPattern: ['DAY', 'NIGHT', 'AFTER', 'OFF'],
    dayShift: { start: '09:00', end: '17:00' },
    nightShift: { start: '17:00', end: '09:00' },
  };

  it('puts one member on each day shift and each night shift', () => {
    // 1 December: m0 日勤, m3 夜勤 (m3 is three days behind: its cycle is at 夜勤).
    expect(who(rota, '2026-12-01T10:00:00')).toEqual(['m0']);
    expect(who(rota, '2026-12-01T18:00:00')).toEqual(['m3']);
    // The small hours belong to the night shift that began the evening before.
    expect(who(rota, '2026-12-02T08:00:00')).toEqual(['m3']);
    // 2 December: m1 日勤, m0 夜勤 (m0 is 明け on the 3rd, 休み on the 4th).
    expect(who(rota, '2026-12-02T10:00:00')).toEqual(['m1']);
    expect(who(rota, '2026-12-02T18:00:00')).toEqual(['m0']);
    expect(who(rota, '2026-12-03T12:00:00')).toEqual(['m2']);
    expect(who(rota, '2026-12-05T12:00:00')).toEqual(['m0']);
  });

  it('runs from shift to shift, and nobody is on call between shifts that leave a gap', () => {
    const slot = onCallAt(rota, [], at('2026-12-01T10:00:00'), TZ);
    expect(slot.from.toISOString()).toBe(at('2026-12-01T09:00:00').toISOString());
    expect(slot.until.toISOString()).toBe(at('2026-12-01T17:00:00').toISOString());
    const gap: OnCallRota = { ...rota, nightShift: { start: '18:00', end: '08:00' } };
    const none = onCallAt(gap, [], at('2026-12-01T17:30:00'), TZ);
    expect(none.userIds).toEqual([]);
    expect(none.source).toBe('none');
    expect(nextOnCall(gap, [], at('2026-12-01T17:30:00'), TZ).userIds).toEqual(['m3']);
  });
});

describe('overrides', () => {
  const rota: OnCallRota = {
    kind: 'daily',
    startsOn: '2026-12-01',
    handoverTime: '09:00',
    members: ['a', 'b'],
  };
  const sick = {
    userId: 's',
    startsAt: at('2026-12-01T12:00:00'),
    endsAt: at('2026-12-01T20:00:00'),
    createdAt: at('2026-11-30T00:00:00'),
  };
  const swap = {
    userId: 't',
    startsAt: at('2026-12-01T18:00:00'),
    endsAt: at('2026-12-02T09:00:00'),
    createdAt: at('2026-11-30T01:00:00'),
  };

  it('cover their period instead of the rota; the newest wins where two overlap', () => {
    const o = [sick, swap];
    expect(onCallAt(rota, o, at('2026-12-01T11:59:00'), TZ).userIds).toEqual(['a']);
    const s = onCallAt(rota, o, at('2026-12-01T12:00:00'), TZ);
    expect(s).toMatchObject({ userIds: ['s'], source: 'override' });
    // The slot ends where the newer override starts.
    expect(s.until.toISOString()).toBe(at('2026-12-01T18:00:00').toISOString());
    expect(onCallAt(rota, o, at('2026-12-01T19:00:00'), TZ).userIds).toEqual(['t']);
    expect(onCallAt(rota, o, at('2026-12-02T09:00:00'), TZ).userIds).toEqual(['b']);
    // Before the sick leave, the next on call is s from 12:00.
    const next = nextOnCall(rota, o, at('2026-12-01T10:00:00'), TZ);
    expect(next.userIds).toEqual(['s']);
    expect(next.from.toISOString()).toBe(at('2026-12-01T12:00:00').toISOString());
  });

  it('name someone even without a rota', () => {
    expect(onCallAt(null, [sick], at('2026-12-01T13:00:00'), TZ).userIds).toEqual(['s']);
    expect(onCallAt(null, [sick], at('2026-12-01T21:00:00'), TZ).userIds).toEqual([]);
  });
});

describe('the rota as the API takes it', () => {
  const base = { kind: 'daily', startsOn: '2026-12-01', handoverTime: '09:00', members: ['a'] };

  it('refuses what it cannot follow, naming the field', () => {
    const issues = (v: unknown) =>
      onCallRota.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues(base)).toEqual([]);
    expect(issues({ ...base, startsOn: '2026-02-30' })).toEqual(['startsOn: must be a real date']);
    expect(issues({ ...base, handoverTime: '24:00' })).toEqual([
      'handoverTime: must be HH:MM (00:00-23:59)',
    ]);
    expect(issues({ ...base, members: ['a', 'a'] })).toEqual(['members: lists a person twice']);
    expect(issues({ ...base, members: [] })[0]).toMatch(/^members:/);
    expect(issues({ ...base, kind: 'shifts' })).toEqual([
      'shiftPattern: is needed for a shift rota',
      'dayShift: is needed for a shift rota',
      'nightShift: is needed for a shift rota',
    ]);
  });
});
