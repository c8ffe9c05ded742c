import type { SiteHeatView } from '@wearable/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { SiteHeatStrip } from './site-heat-list';
import { SiteHeatBadge } from './site-heat-badge';

const site = (patch: Partial<SiteHeatView>): SiteHeatView => ({
  gatewayId: 'gw1',
  gatewayName: '東ゲート',
  groupId: 'g1',
  groupName: '第一現場',
  level: 'NORMAL',
  since: null,
  wbgt: 24,
  wbgtAt: '2026-08-03T05:00:00Z',
  heatRuleAppliesToday: false,
  ...patch,
});

describe('SiteHeatBadge', () => {
  it.each([
    ['ja', 'DANGER', 31.44, '危険WBGT 31.4'],
    ['ja', 'SEVERE', 28, '厳重警戒WBGT 28.0'],
    ['en', 'CAUTION', 25.5, 'CautionWBGT 25.5'],
    ['en', 'NORMAL', null, 'Normalno WBGT'],
  ] as const)('%s %s: the level in words and the WBGT', async (lng, level, wbgt, text) => {
    await renderWithApp(<SiteHeatBadge level={level} wbgt={wbgt} />, { lng });
    const badge = screen.getByTestId('site-heat-badge');
    expect(badge.textContent).toBe(text);
    expect(badge.dataset.level).toBe(level);
  });
});

describe('SiteHeatStrip', () => {
  beforeEach(() => localStorage.setItem('accessToken', 'access-0'));
  afterEach(() => localStorage.clear());

  it('lists each site of the organisations with its badge, under a heading', async () => {
    const calls = stubServer((url) =>
      url.startsWith('/v2/client/c1/siteHeat')
        ? json(200, {
            clientId: 'c1',
            sites: [
              site({ level: 'DANGER', wbgt: 32 }),
              site({ gatewayId: 'gw2', gatewayName: '西ゲート', level: 'CAUTION', wbgt: 26.2 }),
            ],
          })
        : json(404, {}),
    );
    await renderWithApp(<SiteHeatStrip clientIds={['c1']} groupId="g1" />, { lng: 'en' });
    const strip = await screen.findByRole('region', { name: 'Site heat level' });
    const items = within(strip).getAllByTestId('site-heat-site');
    expect(items.map((i) => i.textContent)).toEqual([
      '東ゲート (第一現場)DangerWBGT 32.0',
      '西ゲート (第一現場)CautionWBGT 26.2',
    ]);
    expect(calls[0]?.url).toBe('/v2/client/c1/siteHeat?groupId=g1');
  });

  it('shows nothing when no gateway sends WBGT or the call fails', async () => {
    stubServer(() => json(500, {}));
    const { container } = await renderWithApp(<SiteHeatStrip clientIds={['c1']} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(container.querySelector('[data-testid="site-heat-strip"]')).toBeNull();
  });
});
