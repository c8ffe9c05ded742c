import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/ui/query-state';
import { formatLocalDateTime } from '../../lib/date-format';
import { AlertBadge, causeText, useAlertList } from '../../features/alerts';
import type { RecordPeriod } from '../../features/records';

const ALERT_PERIOD = { day: '24h', week: '7d', month: '30d' } as const;
const MAX_SHOWN = 100;

/** The wearer's alerts over the record's period: type, level, when, and why it fired. Personal users only read them. */
export function PersonalAlerts({ uid, period }: { uid: string; period: RecordPeriod }) {
  const { t, i18n } = useTranslation(['alerts', 'records', 'common']);
  const list = useAlertList(
    { notConfirmed: false, type: '', level: '', period: ALERT_PERIOD[period], uid },
    1,
    MAX_SHOWN,
  );
  const alerts = list.data?.alerts ?? [];
  const locale = i18n.resolvedLanguage ?? 'ja';
  return (
    <QueryState
      isPending={list.isPending}
      isError={list.isError}
      isEmpty={alerts.length === 0}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: t('records:empty.alerts'),
        retry: t('common:common.retry'),
      }}
      onRetry={() => void list.refetch()}
    >
      <ul
        data-testid="personal-alerts"
        className="divide-y divide-slate-100"
        aria-label={t('records:metrics.alerts')}
      >
        {alerts.map((alert) => (
          <li
            key={alert.id}
            data-testid="personal-alert"
            data-type={alert.type}
            className="flex flex-wrap items-start gap-x-4 gap-y-1 py-3"
          >
            <time
              dateTime={alert.openedAt}
              className="w-44 shrink-0 text-sm text-slate-600 tabular-nums"
            >
              {formatLocalDateTime(alert.openedAt, locale)}
            </time>
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">
                  {t(`alerts:types.${alert.type}`)}
                </span>
                <AlertBadge level={alert.level} />
                <span className="text-xs text-slate-500">
                  {statusText(t, alert.status, alert.confirmedAt !== null)}
                </span>
              </p>
              <p className="mt-1 text-sm text-slate-700">
                <span className="text-slate-500">{t('records:alerts.why')}</span>{' '}
                {causeText(t as TFunction<'alerts'>, alert.cause)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </QueryState>
  );
}

function statusText(
  t: TFunction<['alerts', 'records', 'common']>,
  status: 'OPEN' | 'CLOSED',
  confirmed: boolean,
): string {
  if (confirmed) return t('records:alerts.confirmed');
  return status === 'OPEN' ? t('records:alerts.open') : t('records:alerts.closed');
}
