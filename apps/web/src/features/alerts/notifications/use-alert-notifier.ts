import {
  ALERT_POLL_INTERVAL_MS,
  type AlertLevel,
  type AlertView,
  type LiveAlertEvent,
  listAlerts,
} from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../../lib/api-client';
import { call, endpointKey } from '../../../lib/endpoint';
import { decideNotification, readAlertMemo, writeAlertMemo } from './notification-rules';

/** The newest unconfirmed alerts read for their levels (the popup's colour): one page, as the list's largest. */
const LEVELS_PAGE_SIZE = 100;
const UNCONFIRMED = { query: { notConfirmed: 'true', pageSize: LEVELS_PAGE_SIZE } } as const;
/** A list read of its own: every alert change refreshes it with the lists (invalidateAlertViews). */
export const UNCONFIRMED_COUNT_KEY = endpointKey(listAlerts, UNCONFIRMED);

export interface UnconfirmedAlerts {
  count: number;
  /** The ids of the newest ones read (at most a page): an event for one of them is not counted twice. */
  ids: string[];
  levels: AlertLevel[];
  /** The newest unconfirmed EMERGENCY alert, else CRITICAL, with a stored place: the popup names where. */
  urgent: AlertView | null;
  /** The unconfirmed EMERGENCY and CRITICAL alerts read, newest first: the repeating tone, notifications, wall monitor. */
  attention: AlertView[];
  /** Every unconfirmed alert read (at most a page), newest first: the banner's headline and list. */
  alerts: AlertView[];
}

/**
 * What the banner offers: the headline (the newest EMERGENCY, else the newest CRITICAL, else the newest alert),
 * with 確認 and 詳細; the others newest first. A partial answer (an older server, a test's stub) without a type
 * or a time is left out.
 */
export function bannerAlerts(alerts: readonly AlertView[]): {
  headline: AlertView | null;
  others: AlertView[];
} {
  const whole = alerts.filter((a) => typeof a.type === 'string' && typeof a.openedAt === 'string');
  const headline =
    whole.find((a) => a.level === 'EMERGENCY') ??
    whole.find((a) => a.level === 'CRITICAL') ??
    whole[0] ??
    null;
  return { headline, others: whole.filter((a) => a !== headline) };
}

const ATTENTION_LEVELS: readonly AlertLevel[] = ['EMERGENCY', 'CRITICAL'];
const needsAttention = (alert: AlertView) => ATTENTION_LEVELS.includes(alert.level);

/** The alert the popup names: the newest EMERGENCY one, else the newest CRITICAL one, that stored a place. */
export function urgentPlaced(alerts: readonly AlertView[]): AlertView | null {
  // A partial answer (an older server, a test's stub) may leave `place` out: named only when present.
  const placed = alerts.filter((a) => Boolean(a.place));
  return (
    placed.find((a) => a.level === 'EMERGENCY') ??
    placed.find((a) => a.level === 'CRITICAL') ??
    null
  );
}

/** The unconfirmed alerts' count and levels; a failed fetch (status >= 400) is logged only and counts as unknown. */
async function fetchUnconfirmed(): Promise<UnconfirmedAlerts | null> {
  let answer;
  try {
    answer = await call(listAlerts, UNCONFIRMED);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    console.warn(`Alert poll failed with status ${err.status}`);
    return null;
  }
  if (typeof answer.total !== 'number') return null;
  return {
    count: answer.total,
    ids: answer.alerts.map((alert) => alert.id),
    levels: [...new Set(answer.alerts.map((alert) => alert.level))],
    urgent: urgentPlaced(answer.alerts),
    attention: answer.alerts.filter(needsAttention),
    alerts: answer.alerts,
  };
}

/**
 * A live `alert` event on the unconfirmed count: an alert opened unconfirmed is counted from the
 * event (its level joins the levels; the popup names it when it is the newest urgent one); a
 * closing leaves it unconfirmed, so nothing changes; a confirmation is read again (which levels
 * remain is not in the event). `null`: read again.
 */
export function unconfirmedAfterEvent(
  data: UnconfirmedAlerts | null,
  event: LiveAlertEvent,
): UnconfirmedAlerts | null {
  if (data === null || event.action === 'confirmed') return null;
  const alert = event.alert;
  if (event.action === 'closed' || alert.confirmedAt !== null || data.ids.includes(alert.id))
    return data;
  return {
    count: data.count + 1,
    ids: [alert.id, ...data.ids],
    levels: data.levels.includes(alert.level) ? data.levels : [...data.levels, alert.level],
    urgent: urgentPlaced(data.urgent === null ? [alert] : [alert, data.urgent]),
    attention: needsAttention(alert) ? [alert, ...data.attention] : data.attention,
    alerts: [alert, ...data.alerts],
  };
}

/**
 * Polls the unconfirmed alerts every 20 s (live `alert` events invalidate the key at once) and calls
 * `announce(count)` when the rules say so; the memo in localStorage is shared by every tab.
 */
export function useAlertNotifier(
  enabled: boolean,
  announce: (unconfirmed: UnconfirmedAlerts) => void,
): UnconfirmedAlerts | null {
  const query = useQuery({
    queryKey: UNCONFIRMED_COUNT_KEY,
    queryFn: fetchUnconfirmed,
    enabled,
    refetchInterval: ALERT_POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });
  const unconfirmed = enabled ? (query.data ?? null) : null;
  const updatedAt = query.dataUpdatedAt;

  useEffect(() => {
    if (unconfirmed === null) return;
    const decision = decideNotification(unconfirmed.count, readAlertMemo(), Date.now());
    writeAlertMemo(decision.memo);
    if (decision.notify) announce(unconfirmed);
    // Every fetch is a new chance to announce (same count after 5 min), hence updatedAt.
  }, [unconfirmed, updatedAt, announce]);

  return unconfirmed;
}
