import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import enLive from '../../../../public/locales/en/live.json';
import jaLive from '../../../../public/locales/ja/live.json';
import { createTestI18n, json, stubServer } from '../../../testing/render';
import { liveStatusStore } from '../hooks/live-status';
import { LiveHealthBanner } from './live-health-banner';

afterEach(() => {
  liveStatusStore.set('off');
  localStorage.clear();
});

async function renderBanner(lng: 'ja' | 'en', clientId: string | null) {
  localStorage.setItem('accessToken', 'access-0');
  const i18n = await createTestI18n(lng);
  i18n.addResourceBundle('ja', 'live', jaLive);
  i18n.addResourceBundle('en', 'live', enLive);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LiveHealthBanner clientId={clientId} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const status = (body: object) =>
  stubServer((url) =>
    url.endsWith('/v2/client/c1/ingestionStatus')
      ? json(200, { clientId: 'c1', stoppedSince: null, silentGateways: [], ...body })
      : json(404, {}),
  );

describe('LiveHealthBanner', () => {
  it('says nothing while the stream is open and data arrives', async () => {
    const calls = status({});
    liveStatusStore.set('open');
    await renderBanner('ja', 'c1');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls.some((c) => c.url.endsWith('/ingestionStatus'))).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('alerts once the stream has been down for 30 s, not before, and stops when it is back', async () => {
    status({});
    liveStatusStore.set('open');
    liveStatusStore.set('connecting', Date.now() - 10_000);
    await renderBanner('ja', null);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      liveStatusStore.set('off');
      liveStatusStore.set('closed', Date.now() - 45_000);
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('ライブ更新が止まっています（45 秒前から）');
    expect(screen.getByRole('button', { name: 'ページを再読み込み' })).toBeTruthy();
    act(() => liveStatusStore.set('open'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows when the server says data stopped, with each silent gateway (English)', async () => {
    status({
      stoppedSince: new Date(Date.now() - 7 * 60_000).toISOString(),
      silentGateways: [
        {
          id: 's1',
          gatewayId: 'gw1',
          gatewayName: 'East gate',
          groupId: 'g1',
          wearerCount: 3,
          lastHeardAt: new Date(Date.now() - 7 * 60_000).toISOString(),
          openedAt: new Date(Date.now() - 2 * 60_000).toISOString(),
        },
      ],
    });
    liveStatusStore.set('open');
    await renderBanner('en', 'c1');
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toContain(
      'No data is arriving from the gateways (last received 7 minutes ago)',
    );
    expect(banner.textContent).toContain('East gate (3 wearers) · last received 7 minutes ago');
  });
});
