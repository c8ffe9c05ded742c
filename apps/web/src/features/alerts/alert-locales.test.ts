import { ALERT_LEVELS, ALERT_TYPES } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import enAlerts from '../../../public/locales/en/alerts.json';
import enLive from '../../../public/locales/en/live.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import jaLive from '../../../public/locales/ja/live.json';
import i18next from 'i18next';
import { causeText, KNOWN_CAUSE_RULES } from './components/alert-text';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** i18next plural forms (`_one`, `_other`) differ by language: English has two, Japanese one. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseKeys = (value: unknown) =>
  [...new Set(keys(value).map((key) => key.replace(PLURAL_SUFFIX, '')))].sort();

describe('alerts and live locale files', () => {
  it.each([
    ['alerts', jaAlerts, enAlerts],
    ['live', jaLive, enLive],
  ])('%s: ja and en have the same keys', (_ns, ja, en) => {
    expect(baseKeys(ja)).toEqual(baseKeys(en));
  });

  it('English counts have both plural forms (no "1 alerts")', () => {
    for (const file of [enAlerts, enLive]) {
      const all = keys(file);
      for (const key of all.filter((k) => k.endsWith('_other')))
        expect(all).toContain(key.replace(/_other$/, '_one'));
    }
    expect(enAlerts.notification.text_one).toBe('{{count}} alert');
    expect(enAlerts.pager.status_one).toContain('{{count}} alert)');
    expect(enLive.coverage.title_one).toContain('wearer)');
  });

  it('name all ten alert types, the four levels and every engine rule in both languages', () => {
    for (const file of [jaAlerts, enAlerts]) {
      expect(Object.keys(file.types).sort()).toEqual([...ALERT_TYPES].sort());
      expect(Object.keys(file.levels).sort()).toEqual([...ALERT_LEVELS].sort());
      for (const rule of KNOWN_CAUSE_RULES) expect(file.cause[rule]).toBeTruthy();
    }
  });

  it('say the count text of the specification', () => {
    expect(jaAlerts.notification.text_other).toBe('{{count}}件のアラートがあります');
    expect(enAlerts.notification.text_other).toBe('{{count}} alerts');
  });

  it('a man-down fall reads its still minutes in both languages (issue 16)', async () => {
    const cause = {
      rule: 'man-down',
      values: { event: 'FALL', trigger: 'man-down', stillMinutes: 5 },
      windowStart: null,
      windowEnd: null,
    };
    for (const [lng, file, text] of [
      ['ja', jaAlerts, '転倒検知: 動きなし 5 分'],
      ['en', enAlerts, 'Fall: no movement for 5 min'],
    ] as const) {
      const i18n = i18next.createInstance();
      await i18n.init({
        lng,
        resources: { [lng]: { alerts: file } },
        defaultNS: 'alerts',
        interpolation: { escapeValue: false },
      });
      expect(causeText(i18n.getFixedT(lng, 'alerts'), cause)).toBe(text);
    }
  });
});
