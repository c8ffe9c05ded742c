import {
  type LiveAlertEvent,
  type LiveSiteHeatEvent,
  openLiveStream,
  type WearerSummary,
} from '@wearable/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getAccessToken } from '../../../lib/storage';
import { fetchLiveTicket } from '../api/live-ticket';
import {
  applyAlertEvent,
  type LiveSummary,
  mergeSummaryEvents,
  SUMMARY_KEY,
} from '../api/summary-api';
import { liveStatusStore } from './live-status';

/** The part of EventSource the hook uses, so tests can hand in a fake. */
export interface LiveSource {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}
export type CreateLiveSource = (url: string) => LiveSource;
export type FetchLiveTicket = () => Promise<string>;

/** After a refusal (or no ticket) try again with whatever token the API client holds by then. */
export const LIVE_RECONNECT_MS = 10_000;
/** After a stream that was open dropped (the server ends it when the access token expires). */
export const LIVE_RETRY_MS = 1_000;
/**
 * Summary events arriving within this long are applied to the cache together: the server sends a
 * second's changes in one burst, and one update re-renders the list once, not once per wearer.
 */
export const LIVE_APPLY_MS = 100;

const defaultSource: CreateLiveSource = (url) => new EventSource(url);

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return null;
  }
}

const isWearerSummary = (value: unknown): value is WearerSummary =>
  typeof value === 'object' &&
  value !== null &&
  'uid' in value &&
  typeof value.uid === 'string' &&
  'openAlerts' in value &&
  Array.isArray(value.openAlerts);

const isAlertEvent = (value: unknown): value is LiveAlertEvent =>
  typeof value === 'object' &&
  value !== null &&
  'action' in value &&
  'alert' in value &&
  typeof value.alert === 'object' &&
  value.alert !== null &&
  'wearer' in value.alert &&
  typeof value.alert.wearer === 'object' &&
  value.alert.wearer !== null &&
  'status' in value.alert;

const isSiteHeatEvent = (value: unknown): value is LiveSiteHeatEvent =>
  typeof value === 'object' && value !== null && 'site' in value && 'change' in value;

interface Options {
  enabled: boolean;
  onAlert?: (event: LiveAlertEvent) => void;
  /** A site changed heat level (the shell refreshes the site heat badges and the heat-rule report). */
  onSiteHeat?: (event: LiveSiteHeatEvent) => void;
  /** Wearers' latest values changed (a burst of `summary` events, applied together). */
  onSummary?: (wearerIds: string[]) => void;
  /**
   * A stream opened (the first, or again after a drop): what changed before it came as no event,
   * so every view the stream keeps current beyond the summary is fetched again by the caller.
   */
  onOpen?: () => void;
  createSource?: CreateLiveSource;
  fetchTicket?: FetchLiveTicket;
}

/**
 * GET /v3/live as server-sent events: `summary` events (one wearer each) go straight into the
 * summary cache, gathered for LIVE_APPLY_MS; `alert` events update that wearer's open alerts in
 * it (nothing is refetched) and tell the caller (the shell refreshes alert lists and
 * notifications); `siteHeat` events tell the caller (a site changed heat level). Each time a
 * stream opens, the summary is fetched once again (what changed before it opened) and the caller
 * is told (`onOpen`).
 */
export function useLiveStream({
  enabled,
  onAlert,
  onSiteHeat,
  onSummary,
  onOpen,
  createSource = defaultSource,
  fetchTicket = fetchLiveTicket,
}: Options): void {
  const queryClient = useQueryClient();
  const onAlertRef = useRef(onAlert);
  const onSiteHeatRef = useRef(onSiteHeat);
  const onSummaryRef = useRef(onSummary);
  const onOpenRef = useRef(onOpen);
  useEffect(() => {
    onAlertRef.current = onAlert;
    onSiteHeatRef.current = onSiteHeat;
    onSummaryRef.current = onSummary;
    onOpenRef.current = onOpen;
  }, [onAlert, onSiteHeat, onSummary, onOpen]);

  useEffect(() => {
    if (!enabled) {
      liveStatusStore.set('off');
      return;
    }
    let source: LiveSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let pending: WearerSummary[] = [];
    let applyTimer: ReturnType<typeof setTimeout> | undefined;
    const applyPending = () => {
      applyTimer = undefined;
      const events = pending;
      pending = [];
      queryClient.setQueryData<LiveSummary>(SUMMARY_KEY, (old) => mergeSummaryEvents(old, events));
      onSummaryRef.current?.(events.map((e) => e.uid));
    };

    const reconnect = (ms: number, status: 'connecting' | 'closed') => {
      liveStatusStore.set(status);
      retry = setTimeout(() => void connect(), ms);
    };

    const connect = async () => {
      // Without EventSource (old browsers, jsdom) the pages poll instead.
      if (
        getAccessToken() === null ||
        (createSource === defaultSource && typeof EventSource === 'undefined')
      ) {
        liveStatusStore.set('off');
        return;
      }
      liveStatusStore.set('connecting');
      let ticket: string;
      try {
        ticket = await fetchTicket();
      } catch {
        if (!stopped) reconnect(LIVE_RECONNECT_MS, 'closed');
        return;
      }
      if (stopped) return;
      const current = createSource(`${openLiveStream.path}?ticket=${encodeURIComponent(ticket)}`);
      source = current;
      let opened = false;
      current.onopen = () => {
        opened = true;
        liveStatusStore.set('open');
        // What changed while no stream was open (before this page's first one, or during a drop)
        // came as no event: the summary is asked again once the stream is there to carry what follows
        // (a settled answer: every change the server announced before it, however recent its last read).
        void queryClient.invalidateQueries({ queryKey: SUMMARY_KEY });
        onOpenRef.current?.();
      };
      current.onerror = () => {
        if (stopped) return;
        // A ticket opens one stream: EventSource's own retry would reuse it and be refused, so every
        // drop reconnects here with a new ticket (soon after an open stream ended, later after a refusal).
        current.close();
        if (opened) reconnect(LIVE_RETRY_MS, 'connecting');
        else reconnect(LIVE_RECONNECT_MS, 'closed');
      };
      current.addEventListener('summary', (event) => {
        const wearer = parse(event.data);
        if (!isWearerSummary(wearer)) return;
        pending.push(wearer);
        applyTimer ??= setTimeout(applyPending, LIVE_APPLY_MS);
      });
      current.addEventListener('alert', (event) => {
        const alert = parse(event.data);
        if (!isAlertEvent(alert)) return;
        queryClient.setQueryData<LiveSummary>(SUMMARY_KEY, (old) => applyAlertEvent(old, alert));
        onAlertRef.current?.(alert);
      });
      current.addEventListener('siteHeat', (event) => {
        const change = parse(event.data);
        if (isSiteHeatEvent(change)) onSiteHeatRef.current?.(change);
      });
    };

    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(applyTimer);
      source?.close();
      liveStatusStore.set('off');
    };
  }, [enabled, createSource, fetchTicket, queryClient]);
}
