import { describe, expect, it } from 'vitest';
import { ALERT_POLICY_DEFAULTS, type AlertPolicy } from './alert-policy.js';
import type { AlertLevel, AlertType } from './alerts.js';
import {
  decideNotice,
  decideWindowEnd,
  emptyNoticeBucket,
  type NoticeItem,
  type NoticeReason,
} from './notice-policy.js';
import { type OfferedNotice, replayNotices } from './notice-replay.js';
import type { SiteHeatLevel } from './site-heat-levels.js';

// Defaults: group window 2 min, repeat 30 min, 6 SMS / 2 calls per hour.
const policy: AlertPolicy = { ...ALERT_POLICY_DEFAULTS };
const t0 = new Date('2026-08-03T03:56:00Z'); // 12:56 in Tokyo
/** `m` minutes (and `s` seconds) after t0. */
const min = (m: number, s = 0) => new Date(t0.getTime() + m * 60_000 + s * 1000);

const ITEM: Record<string, { type: AlertType; level: AlertLevel }> = {
  heat: { type: 'HEATSTROKE', level: 'CRITICAL' },
  risk: { type: 'ADVANCED_HEATSTROKE_RISK', level: 'CAUTION' },
  sos: { type: 'SOS_CALL', level: 'EMERGENCY' },
  fall: { type: 'DETECT_FALL_DOWN', level: 'EMERGENCY' },
  off: { type: 'NON_WEARING', level: 'DEVICE_STATUS' },
};
const offer = (
  minute: number,
  kind: keyof typeof ITEM,
  site: SiteHeatLevel | null = null,
): OfferedNotice => ({ at: min(minute), item: { ...ITEM[kind]!, siteHeatLevel: site } });

/** The log as `minute reason [covered offers]`, one string per entry, so a row reads like the log. */
const story = (
  offered: OfferedNotice[],
  p: AlertPolicy = policy,
  channel: 'SMS' | 'PHONE_CALL' = 'SMS',
) =>
  replayNotices(offered, p, channel).map(
    (e) =>
      `${(e.at.getTime() - t0.getTime()) / 60_000} ${e.reason} [${e.covers.join(',')}]${e.waiting ? ` waiting ${e.waiting}` : ''}`,
  );
const sentCount = (offered: OfferedNotice[], p: AlertPolicy = policy) =>
  replayNotices(offered, p, 'SMS').filter((e) => e.sent).length;

describe('notice policy: one recipient, one channel (a table per rule)', () => {
  it.each<[string, OfferedNotice[], string[]]>([
    [
      'EMERGENCY goes at once, one message per alert, inside a window and past the cap',
      [offer(0, 'heat'), offer(0.5, 'sos'), offer(0.6, 'fall'), offer(0.7, 'sos')],
      ['0 first [0]', '0.5 emergency [1]', '0.6 emergency [2]', '0.7 emergency [3]'],
    ],
    [
      'the first goes at once; the others within the window go as one message at its end',
      [offer(0, 'heat'), offer(0.5, 'heat'), offer(1, 'off'), offer(1.5, 'heat')],
      ['0 first [0]', '0.5 held [1]', '1 held [2]', '1.5 held [3]', '2 grouped [1,2,3]'],
    ],
    [
      'a grouped message opens the next window: later arrivals wait for its end',
      [offer(0, 'heat'), offer(1, 'heat'), offer(3, 'heat'), offer(7, 'heat')],
      ['0 first [0]', '1 held [1]', '2 grouped [1]', '3 held [2]', '4 grouped [2]', '7 first [3]'],
    ],
    [
      'a quiet bucket after the window sends at once again',
      [offer(0, 'heat'), offer(2, 'heat'), offer(10, 'risk')],
      ['0 first [0]', '2 first [1]', '10 first [2]'],
    ],
    [
      'inhibited: heat CAUTION at a DANGER site is recorded, not sent; CRITICAL and EMERGENCY never',
      [
        offer(0, 'risk', 'DANGER'),
        offer(1, 'heat', 'DANGER'),
        offer(1.5, 'sos', 'DANGER'),
        offer(5, 'risk', 'SEVERE'),
      ],
      ['0 inhibited [0]', '1 first [1]', '1.5 emergency [2]', '5 first [3]'],
    ],
  ])('%s', (_name, offered, expected) => {
    expect(story(offered)).toEqual(expected);
  });

  it('hourly cap: six messages in the hour, the sixth ONE summary naming how many alerts wait, then nothing', () => {
    // An alert every 3 minutes for an hour: each after its window, so each would go at once.
    const offered = Array.from({ length: 20 }, (_, i) => offer(i * 3, 'heat'));
    const log = story(offered);
    expect(log.slice(0, 5)).toEqual([
      '0 first [0]',
      '3 first [1]',
      '6 first [2]',
      '9 first [3]',
      '12 first [4]',
    ]);
    // The hour's last slot is the summary's: the cap holds, the summary included.
    expect(log.slice(5, 7)).toEqual(['15 capped [5]', '17 capSummary [5] waiting 1']);
    expect(log.slice(7)).toEqual(
      offered
        .slice(6)
        .map((o, i) => `${(o.at.getTime() - t0.getTime()) / 60_000} capped [${i + 6}]`),
    );
    expect(sentCount(offered)).toBe(6);
    // The next hour (from the first message at 0) starts afresh.
    expect(story([...offered, offer(61, 'heat')]).at(-1)).toBe('61 first [20]');
  });

  it('the summary counts every alert capped before it goes, held ones included', () => {
    const burst = [0, 3, 6, 9, 12, 15].map((m) => offer(m, 'heat'));
    const log = story([...burst, offer(15.5, 'heat'), offer(16, 'heat'), offer(16.5, 'heat')]);
    // Past the cap within the window of the message at 15: capped; the summary goes at its end.
    expect(log.slice(5)).toEqual([
      '15 capped [5]',
      '15.5 capped [6]',
      '16 capped [7]',
      '16.5 capped [8]',
      '17 capSummary [5,6,7,8] waiting 4',
    ]);
  });

  it('the grouped message that fills the hour: later alerts are capped, the summary at the next window end', () => {
    const burst = [0, 3, 6, 9].map((m) => offer(m, 'heat'));
    const log = story([...burst, offer(9.5, 'heat'), offer(10, 'heat'), offer(11.5, 'heat')]);
    expect(log.slice(4)).toEqual([
      '9.5 held [4]',
      '10 held [5]',
      '11 grouped [4,5]',
      '11.5 capped [6]',
      '13 capSummary [6] waiting 1',
    ]);
  });

  it('phone calls have their own cap (2 an hour by default) and EMERGENCY calls never count', () => {
    const offered = [
      offer(0, 'sos'),
      offer(1, 'heat'),
      offer(4, 'heat'),
      offer(8, 'heat'),
      offer(9, 'heat'),
    ];
    expect(story(offered, policy, 'PHONE_CALL')).toEqual([
      '0 emergency [0]',
      '1 first [1]',
      '4 capped [2]',
      '6 capSummary [2] waiting 1',
      '8 capped [3]',
      '9 capped [4]',
    ]);
  });

  it('a group window of 0 sends every alert at once, still capped', () => {
    const p = { ...policy, groupWindowMinutes: 0 };
    const offered = Array.from({ length: 8 }, (_, i) => offer(i * 0.1, 'heat'));
    expect(sentCount(offered, p)).toBe(6); // five at once and the summary
  });

  it('twenty wearers in ten minutes: a handful of messages instead of twenty', () => {
    const offered = Array.from({ length: 20 }, (_, i) => offer(i * 0.5, i % 3 ? 'heat' : 'risk'));
    const sentAt = replayNotices(offered, policy, 'SMS')
      .filter((e) => e.sent)
      .map((e) => e.at.getTime());
    expect(sentAt.map((t) => (t - t0.getTime()) / 60_000)).toEqual([0, 2, 4, 6, 8, 10]);
  });
});

describe('notice policy: repeat interval (reminders of still-open, unconfirmed alerts)', () => {
  const reminder = (lastNoticeAt: Date, level: AlertLevel = 'CRITICAL'): NoticeItem => ({
    type: 'HEATSTROKE',
    level,
    siteHeatLevel: null,
    lastNoticeAt,
  });

  it.each<[string, number, NoticeReason | 'wait']>([
    ['before the interval nothing happens', 29, 'wait'],
    ['at the interval the reminder goes at once', 30, 'repeat'],
    ['long after, likewise', 95, 'repeat'],
  ])('%s', (_name, minutesLater, expected) => {
    const d = decideNotice(emptyNoticeBucket('SMS'), reminder(t0), policy, min(minutesLater));
    expect(d.action === 'wait' ? 'wait' : d.reason).toBe(expected);
  });

  it('a reminder within a group window is held and grouped like any alert', () => {
    expect(
      story([
        offer(0, 'heat'),
        { at: min(31), item: reminder(t0) },
        { at: min(31.5), item: reminder(min(1)) },
      ]),
    ).toEqual(['0 first [0]', '31 repeat [1]', '31.5 held [2]', '33 grouped [2]']);
  });

  it('an EMERGENCY is never held back by the repeat interval (it has its escalation)', () => {
    const d = decideNotice(emptyNoticeBucket('SMS'), reminder(t0, 'EMERGENCY'), policy, min(1));
    expect(d).toMatchObject({ action: 'send', reason: 'emergency' });
  });
});

describe('notice policy: the bucket it leaves behind', () => {
  it('EMERGENCY leaves the bucket untouched; a first notice opens the window and counts to the cap', () => {
    const empty = emptyNoticeBucket('SMS');
    expect(decideNotice(empty, { ...ITEM.sos!, siteHeatLevel: null }, policy, t0).bucket).toBe(
      empty,
    );
    expect(
      decideNotice(empty, { ...ITEM.heat!, siteHeatLevel: null }, policy, t0).bucket,
    ).toMatchObject({
      lastSentAt: t0,
      hourStartedAt: t0,
      hourSent: 1,
      dueAt: null,
    });
  });

  it('a window end with nothing held clears the due time and sends nothing', () => {
    const b = { ...emptyNoticeBucket('SMS'), dueAt: t0 };
    expect(decideWindowEnd(b, policy, t0)).toMatchObject({
      action: 'none',
      bucket: { dueAt: null },
    });
  });
});
