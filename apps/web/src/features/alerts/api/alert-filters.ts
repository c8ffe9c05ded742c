import { ALERT_LEVELS, ALERT_TYPES, type AlertLevel, type AlertType } from '@wearable/domain';

export const ALERT_PERIODS = ['24h', '7d', '30d', 'all'] as const;
export type AlertPeriod = (typeof ALERT_PERIODS)[number];

export const PERIOD_MS: Record<Exclude<AlertPeriod, 'all'>, number> = {
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};

/** `/alert-histories?unconfirmed`: the history opened on its unconfirmed alerts (the alert banner links here). */
export const UNCONFIRMED_PARAM = 'unconfirmed';

/** What the alert history page filters by; '' means any. */
export interface AlertFilterState {
  notConfirmed: boolean;
  type: AlertType | '';
  level: AlertLevel | '';
  period: AlertPeriod;
  /** One wearer (the detail page). */
  uid?: string;
}

export const DEFAULT_ALERT_FILTERS: AlertFilterState = {
  notConfirmed: false,
  type: '',
  level: '',
  period: '7d',
};

export const isAlertType = (v: string): v is AlertType =>
  (ALERT_TYPES as readonly string[]).includes(v);
export const isAlertLevel = (v: string): v is AlertLevel =>
  (ALERT_LEVELS as readonly string[]).includes(v);
export const isAlertPeriod = (v: string): v is AlertPeriod =>
  (ALERT_PERIODS as readonly string[]).includes(v);

export type AlertQuery = Record<string, string | number | undefined>;

/**
 * The filters as GET /v2/alert/list and /listCsv read them. The period is resolved against `now`
 * when the request is made, so the cache key can hold the period and not a moving instant.
 */
export function filtersToQuery(filters: AlertFilterState, now: number): AlertQuery {
  return {
    notConfirmed: filters.notConfirmed ? 'true' : undefined,
    type: filters.type === '' ? undefined : filters.type,
    level: filters.level === '' ? undefined : filters.level,
    from:
      filters.period === 'all'
        ? undefined
        : new Date(now - PERIOD_MS[filters.period]).toISOString(),
    uid: filters.uid,
  };
}
