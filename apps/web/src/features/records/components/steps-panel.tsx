import type { MonthlyReportResponse } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { monthOf, useMonthlyReport } from '../api/records-api';

/** Steps per day of this month (the monthly report, days in the organisation's zone), with the month's total. */
export function StepsPanel({ uid }: { uid: string }) {
  const { t } = useTranslation(['records', 'common']);
  const month = monthOf(new Date());
  const report = useMonthlyReport(uid, month);
  const days = report.data?.days ?? [];
  const hasSteps = days.some((d) => d.steps > 0);
  return (
    <QueryState
      isPending={report.isPending}
      isError={report.isError}
      isEmpty={!hasSteps}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: t('empty.steps'),
        retry: t('common:common.retry'),
      }}
      onRetry={() => void report.refetch()}
    >
      {report.data && <StepsTable report={report.data} />}
    </QueryState>
  );
}

function StepsTable({ report }: { report: MonthlyReportResponse }) {
  const { t, i18n } = useTranslation('records');
  const locale = i18n.resolvedLanguage ?? 'ja';
  const max = Math.max(1, ...report.days.map((d) => d.steps));
  const number = (n: number) => n.toLocaleString(locale);
  return (
    <div data-testid="record-panel-steps">
      <p className="mb-3 text-sm">
        <span className="text-slate-500">{t('steps.total')}</span>{' '}
        <span data-testid="steps-total" className="font-semibold text-slate-900 tabular-nums">
          {t('values.steps', { value: number(report.totals.steps) })}
        </span>
      </p>
      <Table>
        <caption className="sr-only">{t('steps.caption', { month: report.month })}</caption>
        <thead>
          <tr>
            <Th>{t('steps.date')}</Th>
            <Th>{t('metrics.steps')}</Th>
            <Th>
              <span className="sr-only">{t('steps.bar')}</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {report.days.map((d) => (
            <tr key={d.date} data-testid="steps-day" data-date={d.date}>
              <Td>
                {new Date(`${d.date}T12:00:00`).toLocaleDateString(locale, {
                  month: 'short',
                  day: 'numeric',
                  weekday: 'short',
                })}
              </Td>
              <Td className="tabular-nums">{t('values.steps', { value: number(d.steps) })}</Td>
              <Td className="w-1/2">
                <div
                  aria-hidden="true"
                  className="h-3 rounded bg-teal-600"
                  style={{ width: `${(d.steps / max) * 100}%` }}
                />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
