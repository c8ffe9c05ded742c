import { readFileSync } from 'node:fs';
import { ALERT_LEVELS, ALERT_TYPES, CONFIRM_REASONS, SITE_HEAT_LEVELS } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import {
  ALERT_LEVEL_LABELS,
  ALERT_TYPE_LABELS,
  CONFIRM_REASON_LABELS,
  type Lang,
  SITE_HEAT_LEVEL_LABELS,
  UNASSIGNED_DEVICE_LABELS,
} from './alert-labels.js';

/** The console's alert words (what the screen shows), from the web app's locale files. */
const screenWords = (lang: Lang) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../../web/public/locales/${lang}/alerts.json`, import.meta.url),
      'utf8',
    ),
  ) as {
    types: Record<string, string>;
    levels: Record<string, string>;
    reasons: Record<string, string>;
    unassigned: { device: string };
  };

describe.each(['ja', 'en'] as const)('CSV, SMS and call words in %s', (lang) => {
  const screen = screenWords(lang);
  it.each(ALERT_TYPES)('alert type %s is the screen word', (type) => {
    expect(ALERT_TYPE_LABELS[lang][type]).toBe(screen.types[type]);
  });
  it.each(ALERT_LEVELS)('level %s is the screen word', (level) => {
    expect(ALERT_LEVEL_LABELS[lang][level]).toBe(screen.levels[level]);
  });
  it.each(CONFIRM_REASONS)('confirm reason %s is the screen word', (reason) => {
    expect(CONFIRM_REASON_LABELS[lang][reason]).toBe(screen.reasons[reason]);
  });
  it('a device no wearer holds is named as on the screen', () => {
    expect(UNASSIGNED_DEVICE_LABELS[lang]('BR-0042')).toBe(
      screen.unassigned.device.replace('{{serial}}', 'BR-0042'),
    );
  });
});

describe.each(['ja', 'en'] as const)('site heat level words in %s', (lang) => {
  const common = JSON.parse(
    readFileSync(
      new URL(`../../../../web/public/locales/${lang}/common.json`, import.meta.url),
      'utf8',
    ),
  ) as { siteHeat: { levels: Record<string, string> } };
  it.each(SITE_HEAT_LEVELS)('level %s is the screen word', (level) => {
    expect(SITE_HEAT_LEVEL_LABELS[lang][level]).toBe(common.siteHeat.levels[level]);
  });
});
