import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import enLive from '../../../../public/locales/en/live.json';
import jaLive from '../../../../public/locales/ja/live.json';
import { createTestI18n, json, stubServer } from '../../../testing/render';
import { HistoryPanel } from './history-panel';

afterEach(() => localStorage.clear());

type Point = { at: string; heartRate?: number; heartRateMin?: number; heartRateMax?: number };
type Summary = {
  heartRate: { min: number; avg: number; max: number } | null;
  skinTemperature: { avg: number; max: number } | null;
};
/** The server's answer; its window summary is what the rollups say (by default, the points' own values). */
const answer = (points: Point[], summary?: Summary) => {
  const hr = points.flatMap((p) => (p.heartRate === undefined ? [] : [p.heartRate]));
  return json(200, {
    uid: 'w1',
    from: '2026-11-27T03:00:00.000Z',
    to: '2026-11-28T03:00:00.000Z',
    metrics: ['heartRate', 'skinTemperature', 'wbgt'],
    points,
    timeZone: 'Asia/Tokyo',
    summary: summary ?? {
      heartRate:
        hr.length === 0
          ? null
          : {
              min: Math.min(...hr),
              avg: hr.reduce((a, b) => a + b, 0) / hr.length,
              max: Math.max(...hr),
            },
      skinTemperature: null,
    },
  });
};

async function renderPanel(lastSeenAt: string | null) {
  localStorage.setItem('accessToken', 'access-0');
  const i18n = await createTestI18n('ja');
  i18n.addResourceBundle('ja', 'live', jaLive);
  i18n.addResourceBundle('en', 'live', enLive);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ui = (seen: string | null) => (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <HistoryPanel uid="w1" lastSeenAt={seen} />
      </QueryClientProvider>
    </I18nextProvider>
  );
  const view = render(ui(lastSeenAt));
  return { rerender: (seen: string | null) => view.rerender(ui(seen)) };
}

describe('the wearer page history', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const historyCalls = (calls: { url: string }[]) =>
    calls.filter((c) => c.url.includes('/v3/device/history')).length;

  it('empty while the live summary has a reading as new as the answer: asked again, and the numbers show', async () => {
    // The server had not written the rollups when the page asked first; it has by the second ask.
    let asked = 0;
    const calls = stubServer((url) => {
      if (!url.includes('/v3/device/history')) return json(404, {});
      asked++;
      return asked === 1 ? answer([]) : answer([{ at: ago(5 * 60_000), heartRate: 81 }]);
    });
    await renderPanel(ago(1_000));
    expect(await screen.findByText(jaLive.chart.empty)).toBeTruthy();
    expect(historyCalls(calls)).toBe(1);
    await vi.advanceTimersByTimeAsync(3_100);
    await waitFor(() =>
      expect(screen.getByTestId('history-summary').textContent).toContain('81.0'),
    );
    expect(historyCalls(calls)).toBe(2);
  });

  it('asks at most three times more for one reading, and again for a newer one', async () => {
    const calls = stubServer((url) =>
      url.includes('/v3/device/history') ? answer([]) : json(404, {}),
    );
    const panel = await renderPanel(ago(1_000));
    expect(await screen.findByText(jaLive.chart.empty)).toBeTruthy();
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(3_100);
    expect(historyCalls(calls)).toBe(4);
    panel.rerender(ago(0));
    await vi.advanceTimersByTimeAsync(3_100);
    expect(historyCalls(calls)).toBe(5);
  });

  it('a wearer last seen long before the answer (nothing to chart): not asked again', async () => {
    const calls = stubServer((url) =>
      url.includes('/v3/device/history') ? answer([]) : json(404, {}),
    );
    await renderPanel(ago(3_600_000));
    expect(await screen.findByText(jaLive.chart.empty)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(historyCalls(calls)).toBe(1);
  });

  it('with data shown, a new reading does not ask again (the minute refresh does)', async () => {
    const calls = stubServer((url) =>
      url.includes('/v3/device/history')
        ? answer([{ at: ago(5 * 60_000), heartRate: 75 }])
        : json(404, {}),
    );
    const panel = await renderPanel(ago(1_000));
    await waitFor(() =>
      expect(screen.getByTestId('history-summary').textContent).toContain('75.0'),
    );
    panel.rerender(ago(0));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(historyCalls(calls)).toBe(1);
  });
});

describe('the wearer page history tells the true extremes (issue 36)', () => {
  it("min and max are the window's readings (the rollups' own), not extremes of the buckets' averages", async () => {
    // Readings of 78, 82, 85, 104 and 118 bpm in one 5-minute bucket: its average is 93.4.
    const at = new Date(Date.now() - 10 * 60_000).toISOString();
    stubServer((url) =>
      url.includes('/v3/device/history')
        ? answer([{ at, heartRate: 93.4, heartRateMin: 78, heartRateMax: 118 }], {
            heartRate: { min: 78, avg: 93.4, max: 118 },
            skinTemperature: null,
          })
        : json(404, {}),
    );
    await renderPanel(null);
    const row = await screen.findByTestId('history-summary-heartRate');
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual(['78', '93.4', '118']);
  });
});
