import { ALERT_LEVELS, ALERT_TYPES } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import enAlerts from '../../../public/locales/en/alerts.json';
import enLive from '../../../public/locales/en/live.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import jaLive from '../../../public/locales/ja/live.json';
import { KNOWN_CAUSE_RULES } from './components/alert-text';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe('alerts and live locale files', () => {
  it.each([
    ['alerts', jaAlerts, enAlerts],
    ['live', jaLive, enLive],
  ])('%s: ja and en have the same keys', (_ns, ja, en) => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
  });

  it('name all ten alert types, the four levels and every engine rule in both languages', () => {
    for (const file of [jaAlerts, enAlerts]) {
      expect(Object.keys(file.types).sort()).toEqual([...ALERT_TYPES].sort());
      expect(Object.keys(file.levels).sort()).toEqual([...ALERT_LEVELS].sort());
      for (const rule of KNOWN_CAUSE_RULES) expect(file.cause[rule]).toBeTruthy();
    }
  });

  it('say the count text of the specification', () => {
    expect(jaAlerts.notification.text).toBe('{{count}}件のアラートがあります');
    expect(enAlerts.notification.text).toBe('{{count}} alerts exist');
  });
});
