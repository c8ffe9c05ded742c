import type { LiveAlertEvent, SummaryResponse, WearerSummary } from '@wearable/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMMARY_KEY } from '../api/summary-api';
import { liveStatusStore } from './live-status';
import { LIVE_APPLY_MS, LIVE_RETRY_MS, useLiveStream, type LiveSource } from './use-live-stream';

afterEach(() => cleanup());

/** Stands in for EventSource: the test dispatches the server's events by hand. */
class FakeSource implements LiveSource {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown) {
    const event = new MessageEvent(type, {
      data: typeof data === 'string' ? data : JSON.stringify(data),
    });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const wearer = (uid: string, heartRate: number): WearerSummary => ({
  uid,
  name: uid,
  clientId: 'c1',
  groupId: null,
  groupName: null,
  serialNumber: null,
  heartRate,
  skinTemperature: null,
  worn: true,
  battery: 50,
  connection: 'online',
  lastSeenAt: null,
  openAlerts: [],
});

function setup(
  onAlert = vi.fn(),
  fetchTicket = vi.fn(() => Promise.resolve(`ticket-${++tickets}`)),
  onSiteHeat = vi.fn(),
  onSummary = vi.fn(),
  onOpen = vi.fn(),
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData<SummaryResponse>(SUMMARY_KEY, {
    generatedAt: 'x',
    wearers: [wearer('a', 70), wearer('b', 71)],
  });
  const sources: FakeSource[] = [];
  const createSource = (url: string) => {
    const source = new FakeSource(url);
    sources.push(source);
    return source;
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(
    () =>
      useLiveStream({
        enabled: true,
        onAlert,
        onSiteHeat,
        onSummary,
        onOpen,
        createSource,
        fetchTicket,
      }),
    { wrapper },
  );
  return { queryClient, sources, view, onAlert, onSiteHeat, onSummary, onOpen, fetchTicket };
}

let tickets = 0;
/** Lets the ticket request (a promise) settle inside act. */
const settle = () => act(async () => {});

describe('useLiveStream', () => {
  beforeEach(() => {
    tickets = 0;
    localStorage.setItem('accessToken', 'token 1');
  });
  afterEach(() => localStorage.clear());

  it('tells the caller once per burst of summary events which wearers changed (an open map refetches)', async () => {
    const { sources, onSummary } = setup();
    await settle();
    act(() => sources[0]?.emit('summary', wearer('a', 80)));
    act(() => sources[0]?.emit('summary', wearer('b', 81)));
    expect(onSummary).not.toHaveBeenCalled();
    await act(() => new Promise((resolve) => setTimeout(resolve, LIVE_APPLY_MS + 20)));
    expect(onSummary).toHaveBeenCalledTimes(1);
    expect(onSummary).toHaveBeenCalledWith(['a', 'b']);
  });

  it('connects with a single-use ticket, never the access token, in the URL and reports open', async () => {
    const { sources } = setup();
    await settle();
    expect(sources[0]?.url).toBe('/v3/live?ticket=ticket-1');
    act(() => sources[0]?.onopen?.(new Event('open')));
    expect(liveStatusStore.get()).toBe('open');
  });

  it('asks for the summary again and tells the caller each time a stream opens: what changed before it carried no event', async () => {
    const { sources, queryClient, onOpen } = setup();
    await settle();
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    expect(spy).not.toHaveBeenCalled();
    act(() => sources[0]?.onopen?.(new Event('open')));
    expect(spy).toHaveBeenCalledWith({ queryKey: SUMMARY_KEY });
    act(() => sources[0]?.onerror?.(new Event('error')));
    await act(() => new Promise((resolve) => setTimeout(resolve, LIVE_RETRY_MS + 50)));
    act(() => sources[1]?.onopen?.(new Event('open')));
    expect(spy).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('merges summary events into the cached summary together, once a burst is in; ignores unreadable ones', async () => {
    const { sources, queryClient } = setup();
    await settle();
    const spy = vi.spyOn(queryClient, 'setQueryData');
    act(() => sources[0]?.emit('summary', wearer('b', 160)));
    act(() => sources[0]?.emit('summary', 'not json'));
    act(() => sources[0]?.emit('summary', { uid: 7 }));
    act(() => sources[0]?.emit('summary', wearer('a', 90)));
    await act(() => new Promise((resolve) => setTimeout(resolve, LIVE_APPLY_MS + 20)));
    const cached = queryClient.getQueryData<SummaryResponse>(SUMMARY_KEY);
    expect(cached?.wearers.map((w) => [w.uid, w.heartRate])).toEqual([
      ['a', 90],
      ['b', 160],
    ]);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("applies an alert event to its wearer's open alerts and hands it to the caller, refetching nothing", async () => {
    const { sources, queryClient, onAlert } = setup();
    await settle();
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    const event = {
      action: 'opened',
      alert: {
        id: 'al1',
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        status: 'OPEN',
        openedAt: '2026-11-21T09:00:00.000Z',
        wearer: { uid: 'b', name: 'B' },
      },
    } as unknown as LiveAlertEvent;
    act(() => sources[0]?.emit('alert', event));
    act(() => sources[0]?.emit('alert', { action: 'opened', alert: { id: 'al2' } }));
    expect(onAlert).toHaveBeenCalledTimes(1);
    expect(onAlert).toHaveBeenCalledWith(event);
    const cached = queryClient.getQueryData<SummaryResponse>(SUMMARY_KEY);
    expect(cached?.wearers.map((w) => w.openAlerts.map((a) => a.id))).toEqual([[], ['al1']]);
    expect(spy).not.toHaveBeenCalled();
  });

  it('hands a site heat change to the caller; ignores an unreadable one', async () => {
    const { sources, onSiteHeat } = setup();
    await settle();
    const event = {
      site: { gatewayId: 'gw1', level: 'DANGER', wbgt: 31.4 },
      change: { id: 'e1', from: 'SEVERE', to: 'DANGER' },
    };
    act(() => sources[0]?.emit('siteHeat', event));
    act(() => sources[0]?.emit('siteHeat', 'not json'));
    act(() => sources[0]?.emit('siteHeat', { level: 'DANGER' }));
    expect(onSiteHeat).toHaveBeenCalledTimes(1);
    expect(onSiteHeat).toHaveBeenCalledWith(event);
  });

  it('after a refusal it reconnects later with a new ticket', async () => {
    vi.useFakeTimers();
    try {
      const { sources } = setup();
      await settle();
      const first = sources[0]!;
      first.readyState = 2;
      act(() => first.onerror?.(new Event('error')));
      expect(first.closed).toBe(true);
      expect(liveStatusStore.get()).toBe('closed');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(sources[1]?.url).toBe('/v3/live?ticket=ticket-2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('when an open stream ends (its access token expired) it reconnects within seconds with a new ticket', async () => {
    vi.useFakeTimers();
    try {
      const { sources } = setup();
      await settle();
      act(() => sources[0]?.onopen?.(new Event('open')));
      act(() => sources[0]?.onerror?.(new Event('error')));
      expect(sources[0]?.closed).toBe(true);
      expect(liveStatusStore.get()).toBe('connecting');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_000);
      });
      expect(sources[1]?.url).toBe('/v3/live?ticket=ticket-2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a ticket (refused) it shows closed and tries again later', async () => {
    vi.useFakeTimers();
    try {
      const fetchTicket = vi.fn(() => Promise.reject(new Error('401')));
      const { sources } = setup(vi.fn(), fetchTicket);
      await settle();
      expect(sources).toHaveLength(0);
      expect(liveStatusStore.get()).toBe('closed');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(fetchTicket).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes the stream when unmounted', async () => {
    const { sources, view } = setup();
    await settle();
    view.unmount();
    expect(sources[0]?.closed).toBe(true);
    expect(liveStatusStore.get()).toBe('off');
  });
});
