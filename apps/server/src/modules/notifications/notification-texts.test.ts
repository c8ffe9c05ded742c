import { isGsm7, smsLength } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { alertMessage, alertSms, causeNote, cutTo } from './notification-texts.js';

// A man-down fall names its cause in the SMS and the call (issue 16); an impact fall and every other
// alert keep their usual text.
const fall = {
  type: 'DETECT_FALL_DOWN' as const,
  level: 'EMERGENCY' as const,
  wearerName: '田中 一郎',
  groupName: '第一現場',
  openedAt: new Date('2026-11-26T00:05:00Z'),
  timeZone: 'Asia/Tokyo',
  step: 1,
};
const manDown = { rule: 'man-down', values: { event: 'FALL', stillMinutes: 5 } };

describe('the cause in an alert text', () => {
  it('names man-down with its minutes, in ja and en', () => {
    expect(alertMessage({ ...fall, cause: manDown }, 'ja')).toBe(
      '【緊急】田中 一郎さん: 転倒検知 (動きなし 5 分) (第一現場) 09:05',
    );
    expect(alertMessage({ ...fall, cause: manDown }, 'en')).toBe(
      '[Emergency] 田中 一郎: Fall detected (no movement for 5 min) (第一現場) 09:05',
    );
  });

  it('says nothing more for an impact fall, no cause, or a malformed one', () => {
    expect(alertMessage({ ...fall, cause: { rule: 'fall-detected', values: {} } }, 'ja')).toBe(
      '【緊急】田中 一郎さん: 転倒検知 (第一現場) 09:05',
    );
    expect(causeNote(null, 'ja')).toBe('');
    expect(causeNote({ rule: 'man-down', values: { stillMinutes: '5' } }, 'en')).toBe('');
    expect(causeNote({ rule: 'man-down', values: { stillMinutes: 0 } }, 'en')).toBe('');
  });
});

// Issue 36 item 4: an alert SMS fits a phone. Counted the carriers' way (smsLength: any character
// outside GSM-7 makes the whole text UCS-2, 70 per single segment; GSM-7 160).
describe('an alert SMS fits one segment where it can', () => {
  const PUBLIC_URL = 'https://mimamori.example.jp';
  const link = `${PUBLIC_URL}/a/Ab3dE9x`;
  const sos = {
    type: 'SOS_CALL' as const,
    level: 'EMERGENCY' as const,
    wearerName: '佐藤 花子',
    groupName: 'さくら棟',
    openedAt: new Date('2026-11-26T05:03:00Z'),
    timeZone: 'Asia/Tokyo',
    step: 1,
    link,
  };
  const room = {
    kind: 'gateway' as const,
    gatewayId: 'gw-1',
    gatewayName: '2階 203号室',
    since: '2026-11-26T05:00:00Z',
    rssi: -60,
  };

  it('a Japanese SOS with a typical name and place: one UCS-2 segment', () => {
    // Today's text (alertMessage with a console path) would be 2 segments: 93 characters.
    const today = alertMessage({
      ...sos,
      place: room,
      link: `${PUBLIC_URL}/devices/org-1234abcd/user-5678efgh/alert_histories`,
    });
    expect(smsLength(today).segments).toBeGreaterThan(1);
    const text = alertSms({ ...sos, place: room }, 'ja');
    expect(text).toBe(`【緊急】佐藤 花子さん SOS 14:03 2階 203号室 ${link}`);
    expect(smsLength(text)).toEqual({ encoding: 'UCS-2', units: 68, segments: 1 });
  });

  it('a Japanese man-down FALL on a site zone: one segment, the gateway named without its site', () => {
    const text = alertSms(
      {
        ...fall,
        link,
        cause: manDown,
        place: { ...room, gatewayName: '詰所', siteName: '第一現場' },
      },
      'ja',
    );
    expect(smsLength(text).segments).toBe(1);
    expect(text).toBe(`【緊急】田中 一郎さん 転倒(静止5分) 09:05 詰所 ${link}`);
  });

  it('the full text when it fits (a short PUBLIC_URL)', () => {
    const short = 'https://m.jp/a/Ab3dE9x';
    const text = alertSms({ ...sos, link: short, place: room }, 'ja');
    expect(text).toBe(`【緊急】佐藤 花子さん: SOS発信 (さくら棟) 14:03 場所: 2階 203号室 ${short}`);
    expect(smsLength(text).segments).toBe(1);
  });

  it('a long name is cut to what fits, never split into segments', () => {
    const long = { ...sos, wearerName: '長谷川 ジェニファー 美智子', place: room };
    const text = alertSms(long, 'ja');
    expect(smsLength(text).segments).toBe(1);
    // The longest start of the name that fits, and "…".
    expect(text).toBe(`【緊急】長谷川 ジェ…さん SOS 14:03 2階 203号室 ${link}`);
    // Predictable: the same input, the same text; the link is never cut.
    expect(alertSms(long, 'ja')).toBe(text);
    expect(text.endsWith(` ${link}`)).toBe(true);
  });

  it('a long place is cut after the name, to what fits', () => {
    const text = alertSms(
      { ...sos, place: { ...room, gatewayName: '西館 3階 リハビリテーション室 前 廊下' } },
      'ja',
    );
    expect(smsLength(text).segments).toBe(1);
    expect(text).toMatch(/^【緊急】佐藤…さん SOS 14:03 西館 3階 リハビリテ…/);
  });

  it('English with a Latin name: one GSM-7 segment of 160 (no "·", "±" or "…")', () => {
    const text = alertSms(
      {
        ...sos,
        wearerName: 'Emily Johnson',
        groupName: 'Building B',
        place: { ...room, gatewayName: 'Room 203', siteName: 'East wing' },
      },
      'en',
    );
    expect(text).toBe(
      `[Emergency] Emily Johnson: SOS call (Building B) 14:03 Place: East wing / Room 203 ${link}`,
    );
    expect(smsLength(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    const fallText = alertSms(
      { ...fall, wearerName: 'Emily Johnson', link, cause: manDown, place: { kind: 'unknown' } },
      'en',
    );
    expect(smsLength(fallText)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });

  it('a position is a map link, never raw coordinates', () => {
    const place = {
      kind: 'position' as const,
      latitude: 35.6812,
      longitude: 139.7671,
      accuracy: 12.4,
      at: '2026-11-26T05:03:00Z',
      gatewayId: 'gw-1',
      gatewayName: null,
    };
    const ja = alertSms({ ...sos, place }, 'ja');
    expect(ja).toContain('https://maps.google.com/?q=35.68120,139.76710');
    expect(ja).not.toContain('35.68120, 139.76710');
    // Two links do not fit 70 characters: the full text goes, in two segments, not cut.
    expect(ja).toBe(
      `【緊急】佐藤 花子さん: SOS発信 (さくら棟) 14:03 地図(±12m) https://maps.google.com/?q=35.68120,139.76710 ${link}`,
    );
    expect(smsLength(ja).segments).toBe(2);
    const en = alertSms({ ...sos, wearerName: 'Emily Johnson', groupName: 'Site 1', place }, 'en');
    expect(en).toContain('Map (12 m): https://maps.google.com/?q=35.68120,139.76710');
    expect(smsLength(en)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });

  it('the call keeps its full words and no address', () => {
    expect(alertMessage({ ...sos, link: null, place: room }, 'ja')).toBe(
      '【緊急】佐藤 花子さん: SOS発信 (さくら棟) 14:03 場所: 2階 203号室',
    );
  });
});

describe('smsLength counts the carriers way', () => {
  it('GSM-7: 160 in one, 153 per segment after; the extension table counts two', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsLength('[x]')).toEqual({ encoding: 'GSM-7', units: 5, segments: 1 });
    expect(smsLength('a'.repeat(306)).segments).toBe(2);
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
  });

  it('one character outside GSM-7 makes it all UCS-2: 70 in one, 67 per segment after', () => {
    expect(smsLength('あ'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsLength(`${'a'.repeat(69)}…`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsLength('a'.repeat(70) + '·').segments).toBe(2);
    expect(smsLength('あ'.repeat(134)).segments).toBe(2);
    expect(smsLength('あ'.repeat(135)).segments).toBe(3);
    expect(isGsm7('±')).toBe(false);
    expect(isGsm7('€')).toBe(true);
  });

  it('cutTo keeps two characters at least and ends with the cut mark', () => {
    expect(cutTo('田中 一郎', 3, 'ja')).toBe('田中…');
    expect(cutTo('田中 一郎', 5, 'ja')).toBe('田中 一郎');
    expect(cutTo('Emily Johnson', 8, 'en')).toBe('Emily...');
  });
});
