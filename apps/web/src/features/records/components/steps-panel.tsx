import type { HistoryPoint } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Table, Td, Th } from '../../../components/ui/table';
import type { RecordPeriod } from '../api/records-api';
import { stepsBy } from '../record-math';

/**
 * Steps over the period the switch says: per hour for a day, per day (in the organisation's zone) for a week
 * or a month, newest first, with the period's total.
 */
export function StepsPanel({
  points,
  period,
  timeZone,
}: {
  points: readonly HistoryPoint[];
  period: RecordPeriod;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('records');
  const locale = i18n.resolvedLanguage ?? 'ja';
  const rows = stepsBy(points, period, timeZone);
  const total = rows.reduce((s, r) => s + r.steps, 0);
  if (total === 0)
    return (
      <p data-testid="record-empty" className="text-sm text-slate-500">
        {t('empty.steps')}
      </p>
    );
  const max = Math.max(1, ...rows.map((r) => r.steps));
  const number = (n: number) => n.toLocaleString(locale);
  const label = (key: string) => {
    const date = new Date(`${key.slice(0, 10)}T12:00:00`).toLocaleDateString(locale, {
      month: 'short',
      day: 'numeric',
      weekday: 'short',
    });
    return period === 'day' ? `${date} ${key.slice(11, 13)}:00` : date;
  };
  return (
    <div data-testid="record-panel-steps">
      <p className="mb-3 text-sm">
        <span className="text-slate-500">{t(`steps.total.${period}`)}</span>{' '}
        <span data-testid="steps-total" className="font-semibold text-slate-900 tabular-nums">
          {t('values.steps', { value: number(total) })}
        </span>
      </p>
      <Table>
        <caption className="sr-only">{t(`steps.caption.${period}`)}</caption>
        <thead>
          <tr>
            <Th>{t(period === 'day' ? 'steps.hour' : 'steps.date')}</Th>
            <Th>{t('metrics.steps')}</Th>
            <Th>
              <span className="sr-only">{t('steps.bar')}</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid="steps-day" data-date={r.key}>
              <Td className="whitespace-nowrap">{label(r.key)}</Td>
              <Td className="tabular-nums whitespace-nowrap">
                {t('values.steps', { value: number(r.steps) })}
              </Td>
              <Td className="w-1/2">
                <div
                  aria-hidden="true"
                  className="h-3 rounded bg-teal-600"
                  style={{ width: `${(r.steps / max) * 100}%` }}
                />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
