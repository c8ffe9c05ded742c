import { ROLE_NAMES } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import en from '../../public/locales/en/common.json';
import ja from '../../public/locales/ja/common.json';
import { BOOT_RESOURCES } from './i18n';

/** Every key path of a locale file, arrays counted as leaves (legal page paragraphs). */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

function leaves(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [value];
  return Object.values(value).flatMap(leaves);
}

/** i18next plural forms differ by language (en: _one and _other, ja: _other only): compare their base key. */
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('locale files', () => {
  it('ja and en have exactly the same keys (plural forms compared by their base key)', () => {
    const jaKeys = [...new Set(keys(ja).map(base))].sort();
    const enKeys = [...new Set(keys(en).map(base))].sort();
    expect(jaKeys.filter((key) => !enKeys.includes(key))).toEqual([]);
    expect(enKeys.filter((key) => !jaKeys.includes(key))).toEqual([]);
  });

  it('name the roles as the domain does (one word per role, the mail says the same)', () => {
    expect(ja.roles).toEqual(ROLE_NAMES.ja);
    expect(en.roles).toEqual(ROLE_NAMES.en);
  });

  it('no value is empty', () => {
    for (const value of [...leaves(ja), ...leaves(en)]) expect(String(value).trim()).not.toBe('');
  });

  it('the bundled start-up strings exist in both languages', () => {
    expect(keys(BOOT_RESOURCES.ja)).toEqual(keys(BOOT_RESOURCES.en));
  });

  it('the spec toast keys exist', () => {
    for (const file of [ja, en]) {
      expect(file.termsAgreementSuccess).toBeTruthy();
      expect(file.termsAgreementFailed).toBeTruthy();
    }
  });
});
