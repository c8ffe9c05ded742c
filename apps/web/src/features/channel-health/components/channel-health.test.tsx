import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ChannelHealthResponse, ChannelHealthView } from '@wearable/domain';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestI18n, json, stubServer } from '../../../testing/render';
import { ChannelHealth } from './channel-health';

afterEach(() => localStorage.clear());

const channel = (c: Partial<ChannelHealthView>): ChannelHealthView => ({
  channel: 'SMS',
  webhookId: null,
  label: null,
  enabled: true,
  lastDeliveredAt: null,
  lastFailedAt: null,
  lastFailureReason: null,
  failingSince: null,
  failing: false,
  noticedAt: null,
  ...c,
});

async function renderHealth(lng: 'ja' | 'en', channels: ChannelHealthView[]) {
  localStorage.setItem('accessToken', 'access-0');
  const body: ChannelHealthResponse = { organizationId: 'o1', failingAfterMinutes: 10, channels };
  stubServer((url) =>
    url.endsWith('/v2/organization/o1/channelHealth') ? json(200, body) : json(404, {}),
  );
  const i18n = await createTestI18n(lng);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ChannelHealth organizationId="o1" />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return screen.findByRole('list');
}

describe('ChannelHealth', () => {
  it('shows each channel with its last delivery, failure and reason; a failing one at the top', async () => {
    const list = await renderHealth('ja', [
      channel({
        channel: 'SMS',
        lastDeliveredAt: '2026-12-03T01:00:00Z',
        lastFailedAt: '2026-12-03T01:20:00Z',
        lastFailureReason: 'HTTP 500 20500: Internal Server Error',
        failingSince: '2026-12-03T01:05:00Z',
        failing: true,
        noticedAt: '2026-12-03T01:15:00Z',
      }),
      channel({ channel: 'EMAIL', lastDeliveredAt: '2026-12-03T01:10:00Z' }),
      channel({ channel: 'WEBHOOK', webhookId: 'w1', label: 'hooks.example.test' }),
    ]);
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['failing', 'ok', 'unused']);
    expect(cards[0]!.textContent).toContain('失敗が続いています');
    expect(cards[0]!.textContent).toContain('HTTP 500 20500: Internal Server Error');
    expect(cards[0]!.textContent).toContain('所有者に別の経路で知らせました');
    expect(cards[2]!.textContent).toContain('Webhook (hooks.example.test)');
    expect(screen.getByRole('status').textContent).toContain('失敗が続いている経路があります: SMS');
  });

  it('in English: a working channel, a disabled webhook, and no banner when nothing fails', async () => {
    const list = await renderHealth('en', [
      channel({ channel: 'EMAIL', lastDeliveredAt: '2026-12-03T01:10:00Z' }),
      channel({
        channel: 'WEBHOOK',
        webhookId: 'w1',
        label: 'nurse call',
        enabled: false,
        lastFailedAt: '2026-12-03T01:20:00Z',
        lastFailureReason: 'HTTP 500',
        failingSince: '2026-12-03T01:18:00Z',
      }),
    ]);
    const cards = within(list).getAllByRole('listitem');
    expect(cards[0]!.textContent).toContain('Mail');
    expect(cards[0]!.textContent).toContain('Working');
    expect(cards[1]!.textContent).toContain('Webhook (nurse call)');
    expect(cards[1]!.textContent).toContain('Last attempt failed · disabled');
    expect(cards[1]!.textContent).toContain('HTTP 500');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
