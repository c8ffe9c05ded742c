import type { DeviceSummary } from '@wearable/domain';
import { summaryColumnsBody } from '../../testing/summary-columns';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import enAlerts from '../../../public/locales/en/alerts.json';
import enLive from '../../../public/locales/en/live.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import jaLive from '../../../public/locales/ja/live.json';
import { createTestI18n, json, stubServer } from '../../testing/render';
import { DevicesLivePage } from './devices-live-page';

const state = (uid: string, patch: Partial<DeviceSummary>): DeviceSummary => ({
  uid,
  name: uid,
  clientId: 'c1',
  groupId: 'g1',
  groupName: '第一班',
  serialNumber: null,
  deviceName: null,
  heartRate: 72,
  skinTemperature: 34.25,
  worn: true,
  battery: 90,
  connection: 'online',
  lastSeenAt: new Date(Date.now() - 3 * 60_000).toISOString(),
  openAlerts: [],
  ...patch,
});

/** The summary as the console asks for it: the compact form, with every announced change. */
const columns = (wearers: DeviceSummary[]) => json(200, summaryColumnsBody(wearers));
const SUMMARY_URL = '/v3/device/summary?format=columns&settled=true';

const WEARERS = [
  state('w1', { name: '青木 花子', deviceName: 'Band 1', serialNumber: 'BR-1' }),
  state('w2', { name: '佐藤 一郎', deviceName: 'Band 2', serialNumber: 'BR-2', battery: 50 }),
];

afterEach(() => localStorage.clear());

async function renderPage() {
  localStorage.setItem('accessToken', 'access-0');
  const i18n = await createTestI18n('ja');
  i18n.addResourceBundle('ja', 'live', jaLive);
  i18n.addResourceBundle('en', 'live', enLive);
  i18n.addResourceBundle('ja', 'alerts', jaAlerts);
  i18n.addResourceBundle('en', 'alerts', enAlerts);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/devices']}>
          <DevicesLivePage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('DevicesLivePage', () => {
  it('shows each wearer with live state, open-alert badges and the coverage strip', async () => {
    stubServer((url) => {
      if (url === SUMMARY_URL)
        return columns([
          {
            ...WEARERS[0]!,
            openAlerts: [
              { id: 'a1', type: 'SOS_CALL', level: 'EMERGENCY', openedAt: '2026-11-21T09:00:00Z' },
              { id: 'a2', type: 'HEART_RATE', level: 'CAUTION', openedAt: '2026-11-21T09:00:00Z' },
            ],
          },
          {
            ...WEARERS[1]!,
            worn: false,
            battery: 12,
            connection: 'offline',
            heartRate: null,
          },
        ]);
      return json(404, {});
    });
    await renderPage();
    await screen.findByTestId('coverage-strip');
    const rowOf = (uid: string) =>
      screen.getAllByTestId('wearer-row').find((row) => row.dataset.uid === uid)!;
    const first = rowOf('w1');
    await within(first).findByText('72 bpm');
    expect(first.textContent).toContain('34.3 ℃');
    expect(first.textContent).toContain('装着中');
    expect(first.textContent).toContain('オンライン');
    expect(first.textContent).toContain('3 分前');
    const badges = within(first).getAllByTestId('alert-badge');
    expect(badges.map((b) => [b.textContent, b.dataset.colour])).toEqual([
      ['SOS発信 (緊急)', 'red'],
      ['心拍数異常 (注意)', 'amber'],
    ]);
    expect(first.querySelector('a')?.getAttribute('href')).toBe('/devices/c1/w1');

    const second = rowOf('w2');
    expect(second.textContent).toContain('未装着');
    expect(second.textContent).toContain('12%');
    expect(second.textContent).toContain('オフライン');
    expect(screen.getByTestId('coverage-notWorn').textContent).toContain('1人');
    expect(screen.getByTestId('coverage-offline').textContent).toContain('1人');
    expect(screen.getByTestId('coverage-lowBattery').textContent).toContain('1人');
    expect(screen.getByTestId('coverage-urgent').textContent).toContain('1人');
    // No stream in jsdom: the page says it polls.
    expect(screen.getByTestId('live-status').textContent).toBe('10秒ごとに更新');
  });

  it("shows each site's heat level of the list's organisation above it", async () => {
    stubServer((url) => {
      if (url === SUMMARY_URL) return columns(WEARERS);
      if (url === '/v2/client/c1/siteHeat')
        return json(200, {
          clientId: 'c1',
          sites: [
            {
              gatewayId: 'gw1',
              gatewayName: '東ゲート',
              groupId: 'g1',
              groupName: '第一班',
              level: 'DANGER',
              since: '2026-08-03T05:00:00Z',
              wbgt: 31.4,
              wbgtAt: '2026-08-03T05:10:00Z',
              heatRuleAppliesToday: true,
            },
          ],
        });
      return json(404, {});
    });
    await renderPage();
    const strip = await screen.findByTestId('site-heat-strip', {}, { timeout: 5000 });
    expect(within(strip).getByRole('heading').textContent).toBe('現場の暑さレベル');
    expect(within(strip).getByTestId('site-heat-site').textContent).toBe(
      '東ゲート（第一班）危険WBGT 31.4',
    );
    expect(within(strip).getByTestId('site-heat-badge').dataset.level).toBe('DANGER');
  });

  it('says the list could not be loaded, with a retry, when the summary fails', async () => {
    stubServer(() => json(500, {}));
    await renderPage();
    expect(await screen.findByRole('button', { name: '再読み込み' })).toBeTruthy();
    expect(screen.queryAllByTestId('wearer-row')).toHaveLength(0);
  });

  it('sorts and filters in memory: one request whatever the reader does', async () => {
    const calls = stubServer((url) =>
      url === SUMMARY_URL
        ? columns([
            ...WEARERS,
            state('w3', { name: '今井 三郎', groupName: '第二班', groupId: 'g2', worn: false }),
          ])
        : json(404, {}),
    );
    await renderPage();
    await screen.findAllByTestId('wearer-row');
    const names = () =>
      screen.getAllByTestId('wearer-row').map((row) => row.querySelector('a')?.textContent);
    expect(names()).toEqual(['今井 三郎', '佐藤 一郎', '青木 花子']);
    fireEvent.change(screen.getByTestId('sort-select'), { target: { value: 'name_desc' } });
    expect(names()).toEqual(['青木 花子', '佐藤 一郎', '今井 三郎']);
    fireEvent.change(screen.getByTestId('wearer-search'), { target: { value: 'band 2' } });
    expect(await screen.findAllByTestId('wearer-row')).toHaveLength(1);
    expect(names()).toEqual(['佐藤 一郎']);
    expect(screen.getByTestId('wearer-count').textContent).toBe('3人中 1人を表示');
    fireEvent.change(screen.getByTestId('wearer-search'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('wearer-state-filter'), { target: { value: 'notWorn' } });
    expect(names()).toEqual(['今井 三郎']);
    expect(calls.filter((c) => c.url.startsWith('/v3/device/summary'))).toHaveLength(1);
  });

  it('puts the wearers in alarm first by default (EMERGENCY, CRITICAL, CAUTION, then state, then name) and remembers the choice (issue 36)', async () => {
    const alert = (level: 'EMERGENCY' | 'CRITICAL' | 'CAUTION') => [
      { id: `a-${level}`, type: 'SOS_CALL' as const, level, openedAt: new Date().toISOString() },
    ];
    stubServer((url) =>
      url === SUMMARY_URL
        ? columns([
            state('w1', { name: '伊藤 一' }),
            state('w2', { name: '井上 二', openAlerts: alert('CAUTION') }),
            state('w3', { name: '加藤 三', connection: 'offline' }),
            state('w4', { name: '高橋 翔', openAlerts: alert('EMERGENCY') }),
            state('w5', { name: '吉田 五', openAlerts: alert('CRITICAL') }),
          ])
        : json(404, {}),
    );
    await renderPage();
    await screen.findAllByTestId('wearer-row');
    const names = () =>
      screen.getAllByTestId('wearer-row').map((row) => row.querySelector('a')?.textContent);
    expect(screen.getByTestId<HTMLSelectElement>('sort-select').value).toBe('alerts_first');
    expect(names()).toEqual(['高橋 翔', '吉田 五', '井上 二', '加藤 三', '伊藤 一']);
    fireEvent.change(screen.getByTestId('sort-select'), { target: { value: 'name_desc' } });
    expect(localStorage.getItem('devicesSort')).toBe('name_desc');
  });

  it('opens in the order chosen last time', async () => {
    localStorage.setItem('devicesSort', 'name_desc');
    stubServer((url) => (url === SUMMARY_URL ? columns(WEARERS) : json(404, {})));
    await renderPage();
    await screen.findAllByTestId('wearer-row');
    expect(screen.getByTestId<HTMLSelectElement>('sort-select').value).toBe('name_desc');
  });

  it('draws a site-sized list whole (find in page, a screen reader, print), and only a longer one a screen at a time', async () => {
    const site = Array.from({ length: 120 }, (_, i) =>
      state(`s${String(i).padStart(3, '0')}`, { name: `作業者 ${String(i).padStart(3, '0')}` }),
    );
    stubServer((url) => (url === SUMMARY_URL ? columns(site) : json(404, {})));
    await renderPage();
    expect(await screen.findAllByTestId('wearer-row')).toHaveLength(120);
  });

  it('tells a screen reader how many rows the table has and which one each drawn row is', async () => {
    // (How many rows are drawn is measured in Chromium, bench devices-page: jsdom has no layout.)
    const many = Array.from({ length: 12 }, (_, i) =>
      state(`w${String(i).padStart(2, '0')}`, { name: `利用者 ${String(i).padStart(2, '0')}` }),
    );
    stubServer((url) => (url === SUMMARY_URL ? columns(many) : json(404, {})));
    await renderPage();
    const rows = await screen.findAllByTestId('wearer-row');
    const table = screen.getByRole('table');
    expect(table.getAttribute('aria-rowcount')).toBe('13');
    expect(within(table).getAllByRole('row')[0]?.getAttribute('aria-rowindex')).toBe('1');
    expect(rows.map((row) => row.getAttribute('aria-rowindex'))).toEqual(
      many.map((_, i) => String(i + 2)),
    );
    expect(rows[0]?.querySelector('a')?.textContent).toBe('利用者 00');
  });
});
