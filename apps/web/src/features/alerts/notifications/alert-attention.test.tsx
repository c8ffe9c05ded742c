import type { AlertView } from '@wearable/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { alert, renderAlerts, signInAsRole } from '../alerts-test-utils';
import { AlertNotifier } from './alert-notifier';
import { WALL_MONITOR_KEY } from './wall-monitor-setting';

/**
 * The tab's one AudioContext (jsdom has none): created `suspended`, as Chromium does before a gesture; it runs on
 * `resume()`. It lives for the whole file (the sound module keeps it), so each test starts by suspending it.
 */
const browser = {
  contexts: [] as FakeContext[],
  tones: [] as number[],
};
class FakeContext {
  state: AudioContextState = 'suspended';
  currentTime = 0;
  destination = {};
  onstatechange: (() => void) | null = null;
  constructor() {
    browser.contexts.push(this);
  }
  resume = () => this.set('running');
  set(state: AudioContextState) {
    this.state = state;
    this.onstatechange?.();
    return Promise.resolve();
  }
  createOscillator = () => {
    const oscillator = {
      connect: (next: unknown) => next,
      frequency: { value: 0 },
      start: () => browser.tones.push(oscillator.frequency.value),
      stop: () => undefined,
    };
    return oscillator;
  };
  createGain = () => ({
    connect: (next: unknown) => next,
    gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
  });
}

beforeAll(() => {
  vi.stubGlobal('AudioContext', FakeContext);
});

afterEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  browser.tones = [];
  await act(() => browser.contexts[0]?.set('suspended'));
  vi.useRealTimers();
});

const sos = (id: string): AlertView =>
  alert(id, { type: 'SOS_CALL', level: 'EMERGENCY', place: { kind: 'unknown' } });
/** The server: the unconfirmed list holds `open()`; a confirm takes the alert out of it. */
function server(open: AlertView[]) {
  let alerts = open;
  const calls = stubServer((url, init) => {
    if (url.startsWith('/v2/alert/confirm')) {
      const { alertId } = JSON.parse(init?.body as string) as { alertId: string };
      alerts = alerts.filter((a) => a.id !== alertId);
      return json(200, { alertId, result: 'confirmed' });
    }
    return json(200, { alerts, total: alerts.length, page: 1, pageSize: 100 });
  });
  return { calls, set: (next: AlertView[]) => (alerts = next) };
}
/** The EMERGENCY pattern's first note (ALERT_TONES): one per repeat. */
const emergencyRings = () => browser.tones.filter((f) => f === 1046).length / 2;

async function openConsole(lng: 'ja' | 'en' = 'ja') {
  signInAsRole('ORGANIZATION_OWNER');
  await renderAlerts(<AlertNotifier role="ORGANIZATION_OWNER" />, { path: '/devices', lng });
}

describe('the sound control (issue 34: a console never clicked says that sound is off)', () => {
  it.each([
    ['ja', '音声通知を有効にする', '音声通知はオフです', '音声通知をオンにしました'],
    ['en', 'Turn on alert sound', 'Alert sound is off', 'Alert sound is on'],
  ] as const)(
    '%s: shows "%s" while the audio is suspended; its click arms it, and the band says so in its place',
    async (lng, name, off, on) => {
      server([]);
      await openConsole(lng);
      const control = await screen.findByTestId('sound-control');
      expect(control.textContent).toContain(off);
      fireEvent.click(within(control).getByRole('button', { name }));
      await waitFor(() => expect(screen.queryByTestId('sound-control')).toBeNull());
      // Not removed under the pointer: the band stays, saying sound is on, until the next page.
      const notice = screen.getByTestId('sound-on-notice');
      expect(notice.getAttribute('role')).toBe('status');
      expect(notice.textContent).toContain(on);
    },
  );

  it('comes back when the browser suspends the audio again (never claims sound is on)', async () => {
    server([]);
    await openConsole();
    fireEvent.click(await screen.findByRole('button', { name: '音声通知を有効にする' }));
    await waitFor(() => expect(screen.queryByTestId('sound-control')).toBeNull());
    await act(() => browser.contexts[0]!.set('suspended'));
    expect(await screen.findByTestId('sound-control')).toBeTruthy();
  });
});

describe('the repeating EMERGENCY tone', () => {
  it('repeats every 4 s until the alert is muted here, and names what the mute is for', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server([sos('a')]);
    await openConsole();
    fireEvent.click(await screen.findByRole('button', { name: '音声通知を有効にする' }));
    const band = await screen.findByTestId('ringing-alerts');
    await act(() => vi.advanceTimersByTimeAsync(8_100));
    expect(emergencyRings()).toBeGreaterThanOrEqual(2);
    fireEvent.click(
      within(band).getByRole('button', { name: 'このアラートの音を止める（利用者 a: SOS発信）' }),
    );
    expect(screen.queryByTestId('ringing-alerts')).toBeNull();
    const before = emergencyRings();
    await act(() => vi.advanceTimersByTimeAsync(8_100));
    expect(emergencyRings()).toBe(before);
    // Muted in this tab only: the popup still counts it.
    expect(screen.getByTestId('alert-popup').textContent).toContain('1件のアラートがあります');
  });

  it('stops once the alert is confirmed from its band (the console confirm dialog)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = server([sos('b')]);
    await openConsole();
    fireEvent.click(await screen.findByRole('button', { name: '音声通知を有効にする' }));
    const band = await screen.findByTestId('ringing-alerts');
    fireEvent.click(within(band).getByRole('button', { name: '確認する（利用者 b: SOS発信）' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '1 件を確認する' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/v2/alert/confirm')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('ringing-alerts')).toBeNull());
    const before = emergencyRings();
    await act(() => vi.advanceTimersByTimeAsync(8_100));
    expect(emergencyRings()).toBe(before);
  });

  it('does not ring for a CRITICAL alert', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server([alert('c', { type: 'HEATSTROKE', level: 'CRITICAL' })]);
    await openConsole();
    fireEvent.click(await screen.findByRole('button', { name: '音声通知を有効にする' }));
    await screen.findByTestId('alert-popup');
    await act(() => vi.advanceTimersByTimeAsync(8_100));
    expect(screen.queryByTestId('ringing-alerts')).toBeNull();
    expect(emergencyRings()).toBe(0);
  });
});

describe('system notifications', () => {
  it('tells of a new EMERGENCY alert while the tab is hidden, one notification per alert', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const shown: { title: string; options: NotificationOptions }[] = [];
    vi.stubGlobal(
      'Notification',
      class {
        static permission = 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string, options: NotificationOptions) {
          shown.push({ title, options });
        }
        close() {}
      },
    );
    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    try {
      const answer = server([]);
      await openConsole();
      await act(() => vi.advanceTimersByTimeAsync(100));
      answer.set([sos('d')]);
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      await waitFor(() => expect(shown.some((n) => n.options.tag === 'alert-d')).toBe(true));
      const mine = shown.find((n) => n.options.tag === 'alert-d')!;
      expect(mine.title).toBe('緊急: SOS発信');
      expect(mine.options.body).toBe('利用者 d 場所不明');
      expect(mine.options.requireInteraction).toBe(true);
      // Not also the count's notification for the same news.
      expect(shown.filter((n) => n.options.tag === 'wearable-alerts')).toEqual([]);
    } finally {
      hidden.mockRestore();
      vi.unstubAllGlobals();
      vi.stubGlobal('AudioContext', FakeContext);
    }
  });
});

describe('wall monitor mode', () => {
  it('shows an unconfirmed emergency full screen, naming who, what and where, until dismissed', async () => {
    localStorage.setItem(WALL_MONITOR_KEY, 'on');
    server([sos('e')]);
    await openConsole();
    const dialog = await screen.findByRole('dialog', { name: '緊急アラート: SOS発信' });
    expect(dialog.textContent).toContain('利用者 e');
    expect(dialog.textContent).toContain('場所不明');
    expect(within(dialog).getByRole('link', { name: '詳細を見る' }).getAttribute('href')).toBe(
      '/devices/c1/w-e',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: '閉じる' }));
    await waitFor(() => expect(screen.queryByTestId('wall-monitor-alert')).toBeNull());
  });

  it('confirms from the full-screen alert through the confirm dialog', async () => {
    localStorage.setItem(WALL_MONITOR_KEY, 'on');
    const { calls } = server([sos('f')]);
    await openConsole();
    const overlay = await screen.findByTestId('wall-monitor-alert');
    fireEvent.click(within(overlay).getByRole('button', { name: '確認する' }));
    const confirmDialog = await screen.findByRole('dialog', { name: '利用者 f のアラートを確認' });
    fireEvent.click(within(confirmDialog).getByRole('button', { name: '1 件を確認する' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/v2/alert/confirm')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('wall-monitor-alert')).toBeNull());
  });

  it('is off unless this browser turned it on', async () => {
    server([sos('g')]);
    await openConsole();
    await screen.findByTestId('alert-popup');
    expect(screen.queryByTestId('wall-monitor-alert')).toBeNull();
  });
});
