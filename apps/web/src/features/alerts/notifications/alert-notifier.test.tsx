import type { AlertLevel, Role } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { alert, renderAlerts, signInAsRole } from '../alerts-test-utils';
import { AlertNotifier } from './alert-notifier';
import { ALERT_MEMO_KEY } from './notification-rules';

/** Only the levels matter to the popup; the rest of each alert is left out. */
const listWith = (total: number, levels: AlertLevel[] = []) =>
  json(200, {
    alerts: levels.map((level, i) => ({ id: `a${i}`, level })),
    total,
    page: 1,
    pageSize: 100,
  });

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('AlertNotifier', () => {
  it('polls unconfirmed alerts and shows "<count>件のアラートがあります", storing the memo', async () => {
    const calls = stubServer(() => listWith(3));
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
    expect(await screen.findByText('3件のアラートがあります')).toBeTruthy();
    expect(calls[0]?.url).toBe('/v2/alert/list?notConfirmed=true&pageSize=100');
    const memo = JSON.parse(localStorage.getItem(ALERT_MEMO_KEY) ?? 'null') as {
      count: number;
      timestamp: number;
    };
    expect(memo.count).toBe(3);
  });

  it('says it in English too', async () => {
    stubServer(() => listWith(2));
    signInAsRole('ALL_GENERAL');
    await renderAlerts(<AlertNotifier role="ALL_GENERAL" />, {
      path: '/alert-histories',
      lng: 'en',
    });
    expect(await screen.findByText('2 alerts')).toBeTruthy();
  });

  it('stays quiet when the same count was announced less than 5 minutes ago', async () => {
    localStorage.setItem(
      ALERT_MEMO_KEY,
      JSON.stringify({ count: 3, timestamp: Date.now() - 60_000 }),
    );
    const calls = stubServer(() => listWith(3));
    signInAsRole('ORGANIZATION_GENERAL');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_GENERAL" />, { path: '/devices' });
    await waitFor(() => expect(calls.length).toBe(1));
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(screen.queryByText('3件のアラートがあります')).toBeNull();
  });

  it('shows nothing and logs only when the alert fetch fails (status >= 400)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubServer(() => json(500, { statusCode: 500, error: 'x', message: 'x', code: 'INTERNAL' }));
    signInAsRole('ORGANIZATION_GROUP');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_GROUP" />, { path: '/devices' });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Alert poll failed with status 500'));
    expect(screen.queryByText(/件のアラートがあります/)).toBeNull();
  });

  it.each<[Role | null, string]>([
    ['PERSONAL', '/user/record'],
    ['PERSONAL_SELF', '/user/record'],
    ['ORGANIZATION_OWNER', '/login'],
    ['ORGANIZATION_OWNER', '/verify'],
    ['ORGANIZATION_OWNER', '/demo/devices'],
  ])('%s on %s: no poll, no popup', async (role, path) => {
    const calls = stubServer(() => listWith(5));
    signInAsRole(role ?? 'PERSONAL');
    await renderAlerts(<AlertNotifier role={role} />, { path });
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(calls).toEqual([]);
    expect(screen.queryByText(/5/)).toBeNull();
  });

  it('polls again every 20 seconds (ALERT_POLL_INTERVAL_MS) and announces a new count', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let total = 1;
      stubServer(() => listWith(total));
      signInAsRole('ORGANIZATION_OWNER');
      await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
      expect(await screen.findByText('1件のアラートがあります')).toBeTruthy();
      total = 2;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20_000);
      });
      expect(await screen.findByText('2件のアラートがあります')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the count down as staff confirm (no new popup) and is gone when nothing is unconfirmed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let levels: AlertLevel[] = ['EMERGENCY', 'CAUTION', 'CAUTION'];
      stubServer(() => listWith(levels.length, levels));
      signInAsRole('ORGANIZATION_OWNER');
      await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
      expect(await screen.findByText('3件のアラートがあります')).toBeTruthy();
      levels = ['EMERGENCY'];
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20_000);
      });
      expect(await screen.findByText('1件のアラートがあります')).toBeTruthy();
      expect(JSON.parse(localStorage.getItem(ALERT_MEMO_KEY) ?? 'null')).toMatchObject({
        count: 1,
      });
      levels = [];
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20_000);
      });
      await waitFor(() => expect(screen.queryByText(/件のアラートがあります/)).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });

  it.each<[AlertLevel[], 'red' | 'amber', 'alert' | 'status']>([
    [['EMERGENCY', 'CAUTION'], 'red', 'alert'],
    [['CRITICAL'], 'red', 'status'],
    [['CAUTION'], 'amber', 'status'],
  ])('levels %j: a %s popup with role=%s', async (levels, colour, role) => {
    stubServer(() => listWith(levels.length, levels));
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
    const popup = await screen.findByTestId('alert-popup');
    expect(popup.dataset.colour).toBe(colour);
    expect(popup.getAttribute('role')).toBe(role);
    expect(popup.getAttribute('aria-live')).toBe(role === 'alert' ? 'assertive' : 'polite');
  });

  it('closes after 5 s, but not while focus is inside it; an emergency stays until closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let levels: AlertLevel[] = ['CAUTION'];
      stubServer(() => listWith(levels.length, levels));
      signInAsRole('ORGANIZATION_OWNER');
      await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
      const popup = await screen.findByTestId('alert-popup');
      const open = screen.getByRole('button', { name: 'すべてのアラート' });
      act(() => open.focus());
      await act(() => vi.advanceTimersByTimeAsync(8_000));
      expect(screen.getByTestId('alert-popup')).toBe(popup);
      fireEvent.blur(open, { relatedTarget: document.body });
      act(() => open.blur());
      await act(() => vi.advanceTimersByTimeAsync(5_100));
      expect(screen.queryByTestId('alert-popup')).toBeNull();

      levels = ['EMERGENCY', 'CAUTION'];
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      expect((await screen.findByTestId('alert-popup')).getAttribute('role')).toBe('alert');
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(screen.getByTestId('alert-popup')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: '閉じる' }));
      expect(screen.queryByTestId('alert-popup')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the banner: from banner to confirmed in two taps (issue 36)', () => {
  const fall = alert('f1', {
    type: 'DETECT_FALL_DOWN',
    level: 'EMERGENCY',
    wearer: { uid: 'w-t', name: '高橋 翔' },
    openedAt: '2026-12-01T18:44:00.000Z',
    place: {
      kind: 'gateway',
      gatewayId: 'gw1',
      gatewayName: '詰所',
      since: '2026-12-01T18:40:00.000Z',
      rssi: null,
      siteName: '第一現場',
    },
  });
  const older = alert('h1', { level: 'CAUTION', wearer: { uid: 'w-i', name: '伊藤 花' } });
  const unassigned = alert('s1', {
    type: 'SOS_CALL',
    level: 'EMERGENCY',
    wearer: null,
    device: { serial: 'BR-0042', gatewayId: 'gw1', gatewayName: 'G' },
  });

  it('確認 on the newest emergency opens its dialog naming the person; 確認する confirms it', async () => {
    const calls = stubServer((url) =>
      url.startsWith('/v2/alert/confirm')
        ? json(200, { result: 'CONFIRMED' })
        : json(200, { alerts: [older, fall], total: 2, page: 1, pageSize: 100 }),
    );
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices' });
    const headline = await screen.findByTestId('alert-popup-headline');
    expect(headline.textContent).toContain('高橋 翔');
    expect(headline.textContent).toContain('転倒検知');
    // Tap 1.
    fireEvent.click(screen.getByTestId('alert-popup-confirm'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('高橋 翔');
    expect(screen.getByTestId('confirm-alert-subject').textContent).toContain('転倒検知');
    expect(screen.getByTestId('confirm-alert-subject').textContent).toContain('詰所');
    // Tap 2.
    fireEvent.click(screen.getByTestId('confirm-submit'));
    await waitFor(() =>
      expect(calls.some((c) => c.url.startsWith('/v2/alert/confirm'))).toBe(true),
    );
    const sent = calls.find((c) => c.url.startsWith('/v2/alert/confirm'));
    expect(JSON.stringify(sent?.body ?? '')).toContain('f1');
    // The older alert is listed compactly with its own 確認.
    expect(screen.getByTestId('alert-popup-more').textContent).toContain('伊藤 花');
  });

  it('an SOS from a device no wearer holds is named by its serial, in English too', async () => {
    stubServer(() => json(200, { alerts: [unassigned], total: 1, page: 1, pageSize: 100 }));
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, {
      path: '/devices',
      lng: 'en',
    });
    fireEvent.click(await screen.findByTestId('alert-popup-confirm'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('Unassigned device BR-0042');
  });
});
