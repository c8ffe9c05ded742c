import type { AlertListResponse, AlertView, LiveAlertEvent } from '@wearable/domain';
import { listAlerts, getHandover } from '@wearable/domain';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { endpointKey } from '../../../lib/endpoint';
import { alert as fixture } from '../alerts-test-utils';
import {
  UNCONFIRMED_COUNT_KEY,
  unconfirmedAfterEvent,
  type UnconfirmedAlerts,
} from '../notifications/use-alert-notifier';
import { type AlertListKey, listAfterEvent, matchesFilters } from './alert-cache';
import { DEFAULT_ALERT_FILTERS } from './alert-filters';
import { applyAlertEvent } from './alerts-api';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

/** The shared fixture's alert, opened `openedMinutesAgo` before NOW: an SOS of wearer u1 unless `patch` says. */
const alert = (id: string, openedMinutesAgo: number, patch: Partial<AlertView> = {}): AlertView =>
  fixture(id, {
    type: 'SOS_CALL',
    level: 'EMERGENCY',
    openedAt: minutesAgo(openedMinutesAgo),
    wearer: { uid: 'u1', name: '山田 太郎' },
    ...patch,
  });

const page = (alerts: AlertView[], total = alerts.length, p = 1, pageSize = 3) =>
  ({ alerts, total, page: p, pageSize }) satisfies AlertListResponse;
const key = (p = 1, filters = DEFAULT_ALERT_FILTERS, pageSize = 3): AlertListKey => ({
  filters,
  page: p,
  pageSize,
});
const opened = (a: AlertView): LiveAlertEvent => ({ action: 'opened', alert: a });
const confirmed = (a: AlertView): LiveAlertEvent => ({
  action: 'confirmed',
  alert: { ...a, confirmedAt: minutesAgo(0), confirmedBy: { uid: 's1', name: '佐藤' } },
});

describe('listAfterEvent', () => {
  it('puts a newly opened alert first on page 1 and counts it; the page keeps its size', () => {
    const list = page([alert('b', 5), alert('c', 10), alert('d', 20)], 7);
    const next = listAfterEvent(list, key(), opened(alert('a', 0)), NOW);
    expect(next?.alerts.map((a) => a.id)).toEqual(['a', 'b', 'c']);
    expect(next?.total).toBe(8);
  });

  it('places a late (backlog) alert by its opening time, or only counts it when it falls on a later page', () => {
    const list = page([alert('b', 5), alert('d', 20)], 2);
    expect(
      listAfterEvent(list, key(), opened(alert('c', 10)), NOW)?.alerts.map((a) => a.id),
    ).toEqual(['b', 'c', 'd']);
    const full = page([alert('b', 5), alert('c', 10), alert('d', 20)], 9);
    const later = listAfterEvent(full, key(), opened(alert('z', 60)), NOW);
    expect(later?.alerts.map((a) => a.id)).toEqual(['b', 'c', 'd']);
    expect(later?.total).toBe(10);
  });

  it('leaves a page alone for an alert outside its filters or period', () => {
    const list = page([alert('b', 5)], 1);
    const criticalOnly = { ...DEFAULT_ALERT_FILTERS, level: 'CRITICAL' as const };
    expect(listAfterEvent(list, key(1, criticalOnly), opened(alert('a', 0)), NOW)).toBe(list);
    const otherWearer = { ...DEFAULT_ALERT_FILTERS, uid: 'u2' };
    expect(listAfterEvent(list, key(1, otherWearer), opened(alert('a', 0)), NOW)).toBe(list);
    const day = { ...DEFAULT_ALERT_FILTERS, period: '24h' as const };
    expect(listAfterEvent(list, key(1, day), opened(alert('old', 25 * 60)), NOW)).toBe(list);
  });

  it('updates an alert on the page in place when it closes or is confirmed', () => {
    const b = alert('b', 5);
    const list = page([alert('a', 1), b], 2);
    const next = listAfterEvent(list, key(), confirmed(b), NOW);
    expect(next?.alerts[1]?.confirmedBy).toEqual({ uid: 's1', name: '佐藤' });
    expect(next?.total).toBe(2);
    expect(next?.alerts[0]).toBe(list.alerts[0]);
  });

  it('asks again when the page cannot be told from the event', () => {
    const b = alert('b', 5);
    const unconfirmed = { ...DEFAULT_ALERT_FILTERS, notConfirmed: true };
    // Confirmed while the page lists unconfirmed ones: the next page's first alert moves up.
    expect(listAfterEvent(page([b], 4), key(1, unconfirmed), confirmed(b), NOW)).toBeNull();
    // Confirmed elsewhere in such a list: the pages shift.
    expect(
      listAfterEvent(page([alert('a', 1)], 4), key(1, unconfirmed), confirmed(b), NOW),
    ).toBeNull();
    // A new alert newer than page 2's alerts: every page shifts by one.
    expect(
      listAfterEvent(page([alert('x', 50)], 4, 2), key(2), opened(alert('new', 0)), NOW),
    ).toBeNull();
  });

  it('does not count an alert twice when its event comes again', () => {
    const a = alert('a', 0);
    const list = page([a, alert('b', 5)], 2);
    expect(listAfterEvent(list, key(), opened(a), NOW)?.total).toBe(2);
  });

  it('matches the filters the server applies', () => {
    expect(matchesFilters(alert('a', 0), DEFAULT_ALERT_FILTERS, NOW)).toBe(true);
    const typed = { ...DEFAULT_ALERT_FILTERS, type: 'DETECT_FALL_DOWN' as const };
    expect(matchesFilters(alert('a', 0), typed, NOW)).toBe(false);
    expect(matchesFilters(alert('a', 8 * 24 * 60), DEFAULT_ALERT_FILTERS, NOW)).toBe(false);
  });
});

describe('unconfirmedAfterEvent', () => {
  const data: UnconfirmedAlerts = {
    count: 2,
    ids: ['b', 'c'],
    levels: ['CAUTION'],
    urgent: null,
    attention: [],
    alerts: [],
  };

  it('counts an opened alert once, adds its level, and names it when it is urgent and placed', () => {
    const placed = alert('a', 0, { place: { kind: 'unknown' } });
    const next = unconfirmedAfterEvent(data, opened(placed));
    expect(next).toEqual({
      count: 3,
      ids: ['a', 'b', 'c'],
      levels: ['CAUTION', 'EMERGENCY'],
      urgent: placed,
      attention: [placed],
      alerts: [placed],
    });
    expect(unconfirmedAfterEvent(next, opened(placed))).toBe(next);
  });

  it('keeps the count when an alert closes unconfirmed, asks again on a confirmation', () => {
    expect(unconfirmedAfterEvent(data, { action: 'closed', alert: alert('b', 5) })).toBe(data);
    expect(unconfirmedAfterEvent(data, confirmed(alert('b', 5)))).toBeNull();
  });
});

describe('applyAlertEvent', () => {
  it('updates the cached pages and the count from the event and refetches only what it cannot carry', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const listKey = [...endpointKey(listAlerts), key()];
    const secondPage = [...endpointKey(listAlerts), key(2)];
    client.setQueryData(listKey, page([alert('b', 5)], 4));
    client.setQueryData(secondPage, page([alert('x', 50)], 4, 2));
    client.setQueryData(UNCONFIRMED_COUNT_KEY, {
      count: 1,
      ids: ['b'],
      levels: ['EMERGENCY'],
      urgent: null,
      attention: [],
      alerts: [],
    } satisfies UnconfirmedAlerts);
    client.setQueryData(endpointKey(getHandover), { shifts: [] });

    await applyAlertEvent(client, opened(alert('a', 0)), NOW);

    expect(client.getQueryData<AlertListResponse>(listKey)?.alerts.map((a) => a.id)).toEqual([
      'a',
      'b',
    ]);
    expect(client.getQueryState(listKey)?.isInvalidated).toBe(false);
    expect(client.getQueryData<UnconfirmedAlerts>(UNCONFIRMED_COUNT_KEY)?.count).toBe(2);
    expect(client.getQueryState(UNCONFIRMED_COUNT_KEY)?.isInvalidated).toBe(false);
    // Page 2 shifts by one and the handover is not in the event: both are read again.
    expect(client.getQueryState(secondPage)?.isInvalidated).toBe(true);
    expect(client.getQueryState(endpointKey(getHandover))?.isInvalidated).toBe(true);
  });
});
