import { GATEWAY_STATUSES, GATEWAY_TYPES } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en/wearer.json';
import ja from '../../../public/locales/ja/wearer.json';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}
const base = (value: unknown) =>
  [...new Set(keys(value).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();

describe('wearer locale files', () => {
  it('ja and en have the same keys (plural forms by their base key), none empty', () => {
    expect(base(ja)).toEqual(base(en));
    for (const file of [ja, en])
      for (const key of keys(file))
        expect(
          String(
            key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], file),
          ).trim(),
        ).not.toBe('');
  });

  it('names every gateway type and status', () => {
    for (const file of [ja, en]) {
      for (const type of GATEWAY_TYPES) expect(file.gatewayType[type]).toBeTruthy();
      for (const type of GATEWAY_TYPES) expect(file.pairing.typeHint[type]).toBeTruthy();
      for (const status of GATEWAY_STATUSES) expect(file.gatewayStatus[status]).toBeTruthy();
    }
  });
});
