import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en/records.json';
import ja from '../../../public/locales/ja/records.json';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('records locale files', () => {
  it('ja and en have the same keys and no empty value', () => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
    const values = (file: unknown) =>
      keys(file).map((k) =>
        k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], file),
      );
    for (const v of [...values(ja), ...values(en)]) expect(String(v).trim()).not.toBe('');
  });
});
