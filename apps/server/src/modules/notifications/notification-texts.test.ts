import { describe, expect, it } from 'vitest';
import { alertMessage, causeNote } from './notification-texts.js';

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
