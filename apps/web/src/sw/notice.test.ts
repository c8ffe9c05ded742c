import { describe, expect, it } from 'vitest';
import { noticeOptions, parseNotice, targetOf } from './notice';

const payload = {
  alertId: 'a-1',
  title: '【緊急】山田 太郎さん',
  body: 'SOS (第一現場) 14:03',
  url: '/devices/o/w/alert_histories',
  emergency: true,
  confirmable: true,
};
const labels = { confirm: '確認', details: '詳細' };

describe("the console's service worker", () => {
  it('shows one alert as a notification with 確認 and 詳細, kept until answered when EMERGENCY', () => {
    const n = parseNotice(JSON.stringify(payload));
    expect(n).not.toBeNull();
    const options = noticeOptions(n!, labels);
    expect(options).toMatchObject({ body: payload.body, tag: 'a-1', requireInteraction: true });
    expect(options.actions).toEqual([
      { action: 'confirm', title: '確認' },
      { action: 'details', title: '詳細' },
    ]);
  });

  it('a grouped message offers 詳細 only', () => {
    const n = parseNotice(JSON.stringify({ ...payload, alertId: null, confirmable: false }))!;
    expect(noticeOptions(n, labels).actions).toEqual([{ action: 'details', title: '詳細' }]);
  });

  it('確認 goes to the confirm page, 詳細 and a tap to the alert', () => {
    const data = { alertId: 'a/1', url: payload.url, confirmable: true };
    expect(targetOf(data, 'confirm')).toBe('/alerts/a%2F1/confirm');
    expect(targetOf(data, 'details')).toBe(payload.url);
    expect(targetOf(data, '')).toBe(payload.url);
  });

  it('ignores what is not our payload, and never opens another origin', () => {
    expect(parseNotice('not json')).toBeNull();
    expect(parseNotice(JSON.stringify({ ...payload, url: 'https://evil.example/' }))).toBeNull();
    expect(targetOf({ alertId: null, url: '//evil.example', confirmable: false }, '')).toBeNull();
    expect(parseNotice(JSON.stringify({ ...payload, url: '/\\evil.example' }))).toBeNull();
  });
});
