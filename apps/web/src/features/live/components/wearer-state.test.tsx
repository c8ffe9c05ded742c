import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import enLive from '../../../../public/locales/en/live.json';
import jaLive from '../../../../public/locales/ja/live.json';
import { createTestI18n } from '../../../testing/render';
import {
  LatestValue,
  STALE_AFTER_MS,
  staleAgeMs,
  useWearerStateText,
  WornState,
} from './wearer-state';

/** A fixed clock: 2026-12-01 14:16 JST. */
const NOW = Date.parse('2026-12-01T05:16:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

function Row({ lastSeenAt, connection }: { lastSeenAt: string; connection: 'online' | 'offline' }) {
  const text = useWearerStateText();
  const staleMs = staleAgeMs({ lastSeenAt, connection }, NOW);
  return (
    <p data-testid="row">
      <span data-testid="hr">
        <LatestValue staleMs={staleMs} text={text}>
          {text.heartRate(118)}
        </LatestValue>
      </span>
      <span data-testid="worn">
        <LatestValue staleMs={staleMs} text={text} showAge={false}>
          <WornState worn text={text} stale={staleMs !== null} />
        </LatestValue>
      </span>
    </p>
  );
}

async function renderRow(lng: 'ja' | 'en', props: Parameters<typeof Row>[0]) {
  const i18n = await createTestI18n(lng);
  i18n.addResourceBundle('ja', 'live', jaLive);
  i18n.addResourceBundle('en', 'live', enLive);
  render(
    <I18nextProvider i18n={i18n}>
      <Row {...props} />
    </I18nextProvider>,
  );
}

describe('stale latest values (issue 34 item 6)', () => {
  it('are stale once the server says offline, or older than STALE_AFTER_MS by the clock', () => {
    expect(staleAgeMs({ lastSeenAt: minutesAgo(2), connection: 'online' }, NOW)).toBeNull();
    expect(staleAgeMs({ lastSeenAt: minutesAgo(13), connection: 'offline' }, NOW)).toBe(
      13 * 60_000,
    );
    // The cached answer still says online, but the page's clock has moved past every duty cycle.
    expect(staleAgeMs({ lastSeenAt: minutesAgo(31), connection: 'online' }, NOW)).toBe(31 * 60_000);
    expect(STALE_AFTER_MS).toBe(30 * 60_000);
    expect(staleAgeMs({ lastSeenAt: null, connection: 'offline' }, NOW)).toBeNull();
  });

  it('a current value is shown as it is', async () => {
    await renderRow('ja', { lastSeenAt: minutesAgo(2), connection: 'online' });
    expect(screen.getByTestId('hr').textContent).toBe('118 bpm');
    expect(screen.getByTestId('row').querySelector('[data-stale]')).toBeNull();
    expect(screen.getByText('装着中').className).toContain('text-slate-800');
  });

  it('a stale value is greyed with its age ("118 bpm · 13 分前"), never in the colours of a current one', async () => {
    await renderRow('ja', { lastSeenAt: minutesAgo(13), connection: 'offline' });
    const hr = screen.getByTestId('hr').firstElementChild as HTMLElement;
    expect(hr.dataset.stale).toBe('true');
    expect(hr.className).toContain('text-slate-500');
    expect(hr.textContent).toBe('118 bpm · 13 分前');
    // The other values say it to screen readers (the age is shown once per row).
    const worn = screen.getByTestId('worn');
    expect(worn.textContent).toBe('装着中 (最新ではない値・13 分前)');
    expect(worn.querySelector('.text-slate-800')).toBeNull();
  });

  it('in English too', async () => {
    await renderRow('en', { lastSeenAt: minutesAgo(13), connection: 'offline' });
    expect(screen.getByTestId('hr').textContent).toBe('118 bpm · 13 minutes ago');
    expect(screen.getByTestId('worn').textContent).toBe('Worn (Not current (13 minutes ago))');
  });
});
