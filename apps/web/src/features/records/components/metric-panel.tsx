import type { HistoryPoint } from '@wearable/domain';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LineChart } from '../../../components/ui/line-chart';
import { rangeOf } from '../record-math';

type Metric = 'heartRate' | 'skinTemperature';
const COLOUR: Record<Metric, string> = { heartRate: '#dc2626', skinTemperature: '#0f766e' };

/** One measured metric over the period: min / average / max in words, and the chart. */
export function MetricPanel({
  points,
  metric,
  withDate,
}: {
  points: readonly HistoryPoint[];
  metric: Metric;
  withDate: boolean;
}) {
  const { t, i18n } = useTranslation('records');
  const summaryId = useId();
  const values = useMemo(() => points.map((p) => p[metric] ?? null), [points, metric]);
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const series = useMemo(
    () => [{ label: t(`metrics.${metric}`), colour: COLOUR[metric], values }],
    [t, metric, values],
  );
  const range = rangeOf(values);
  if (range === null)
    return (
      <p data-testid="record-empty" className="text-sm text-slate-500">
        {t('empty.metric')}
      </p>
    );
  const digits = metric === 'heartRate' ? 0 : 1;
  const show = (v: number) => t(`values.${metric}`, { value: v.toFixed(digits) });
  return (
    <div data-testid={`record-panel-${metric}`}>
      <dl id={summaryId} className="mb-3 flex flex-wrap gap-x-8 gap-y-1 text-sm">
        {(['min', 'avg', 'max'] as const).map((k) => (
          <div key={k} className="flex gap-2">
            <dt className="text-slate-500">{t(`range.${k}`)}</dt>
            <dd
              data-testid={`record-${metric}-${k}`}
              className="font-semibold text-slate-900 tabular-nums"
            >
              {show(range[k])}
            </dd>
          </div>
        ))}
      </dl>
      <LineChart
        times={times}
        series={series}
        yLabel={t(`units.${metric}`)}
        label={t('chart.label', { metric: t(`metrics.${metric}`) })}
        describedBy={summaryId}
        timeLabel={t('chart.time')}
        locale={i18n.resolvedLanguage ?? 'ja'}
        withDate={withDate}
        testId="record-chart"
      />
    </div>
  );
}
