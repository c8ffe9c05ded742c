import { describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en/family.json';
import ja from '../../../../public/locales/ja/family.json';
import { alert } from '../alerts-test-utils';
import { familyBannerAlerts, HANDLED_SHOWN_MS } from './family-alerts';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('familyBannerAlerts: what a family member is shown', () => {
  it('open EMERGENCY and CRITICAL alerts, newest first; not cautions or device states', () => {
    const shown = familyBannerAlerts(
      [
        alert('sos', { level: 'EMERGENCY', type: 'SOS_CALL', openedAt: ago(60_000) }),
        alert('heat', { level: 'CRITICAL', type: 'HEATSTROKE', openedAt: ago(10_000) }),
        alert('hr', { level: 'CAUTION', type: 'HEART_RATE', openedAt: ago(5_000) }),
        alert('battery', { level: 'DEVICE_STATUS', type: 'DISCONNECTION', openedAt: ago(1_000) }),
      ],
      NOW,
    );
    expect(shown.map((a) => a.id)).toEqual(['heat', 'sos']);
  });

  it('a confirmed one for an hour ("being handled"); one closed without confirmation not at all', () => {
    const confirmed = (id: string, ms: number) =>
      alert(id, {
        level: 'EMERGENCY',
        status: 'CLOSED',
        closeReason: 'confirmed',
        confirmedAt: ago(ms),
        openedAt: ago(ms + 60_000),
      });
    const shown = familyBannerAlerts(
      [
        confirmed('recent', 60_000),
        confirmed('old', HANDLED_SHOWN_MS + 1),
        alert('recovered', { level: 'CRITICAL', status: 'CLOSED', closeReason: 'recovered' }),
        // The same alert from the open and the closed read (it was confirmed between them): once.
        confirmed('recent', 60_000),
      ],
      NOW,
    );
    expect(shown.map((a) => a.id)).toEqual(['recent']);
  });
});

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('family locale files', () => {
  it('ja and en have the same keys', () => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
  });
});
