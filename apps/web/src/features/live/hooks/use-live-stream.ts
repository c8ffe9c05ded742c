import type { LiveAlertEvent, WearerSummary } from '@wearable/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getAccessToken } from '../../../lib/storage';
import { mergeSummaryEvent, SUMMARY_KEY } from '../api/summary-api';
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

const CLOSED = 2;
/** After a refusal (expired token) try again with whatever token the API client holds by then. */
export const LIVE_RECONNECT_MS = 10_000;

const defaultSource: CreateLiveSource = (url) => new EventSource(url);

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return null;
  }
}

const isWearerSummary = (value: unknown): value is WearerSummary =>
  typeof value === 'object' && value !== null && 'uid' in value && typeof value.uid === 'string' &&
  'openAlerts' in value && Array.isArray(value.openAlerts);

const isAlertEvent = (value: unknown): value is LiveAlertEvent =>
  typeof value === 'object' && value !== null && 'action' in value && 'alert' in value;

interface Options {
  enabled: boolean;
  onAlert?: (event: LiveAlertEvent) => void;
  createSource?: CreateLiveSource;
}

/**
 * GET /v3/live as server-sent events: `summary` events go straight into the summary cache,
 * `alert` events refetch it and tell the caller (the shell refreshes alert lists and notifications).
 */
export function useLiveStream({ enabled, onAlert, createSource = defaultSource }: Options): void {
  const queryClient = useQueryClient();
  const onAlertRef = useRef(onAlert);
  useEffect(() => {
    onAlertRef.current = onAlert;
  }, [onAlert]);

  useEffect(() => {
    if (!enabled) {
      liveStatusStore.set('off');
      return;
    }
    let source: LiveSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const connect = () => {
      const token = getAccessToken();
      // Without EventSource (old browsers, jsdom) the pages poll instead.
      if (token === null || (createSource === defaultSource && typeof EventSource === 'undefined')) {
        liveStatusStore.set('off');
        return;
      }
      liveStatusStore.set('connecting');
      const current = createSource(`/v3/live?access_token=${encodeURIComponent(token)}`);
      source = current;
      current.onopen = () => liveStatusStore.set('open');
      current.onerror = () => {
        // EventSource retries dropped connections itself; a refused one (401) ends as CLOSED.
        if (current.readyState !== CLOSED || stopped) {
          liveStatusStore.set('connecting');
          return;
        }
        liveStatusStore.set('closed');
        current.close();
        retry = setTimeout(connect, LIVE_RECONNECT_MS);
      };
      current.addEventListener('summary', (event) => {
        const wearer = parse(event.data);
        if (!isWearerSummary(wearer)) return;
        queryClient.setQueryData(SUMMARY_KEY, (old: Parameters<typeof mergeSummaryEvent>[0]) => mergeSummaryEvent(old, wearer));
      });
      current.addEventListener('alert', (event) => {
        const alert = parse(event.data);
        if (!isAlertEvent(alert)) return;
        void queryClient.invalidateQueries({ queryKey: SUMMARY_KEY });
        onAlertRef.current?.(alert);
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      liveStatusStore.set('off');
    };
  }, [enabled, createSource, queryClient]);
}
