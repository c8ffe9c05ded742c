import type { HistoryResponse } from '@wearable/domain';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LineChart, type LineSeries } from '../../../components/ui/line-chart';

type Metric = 'heartRate' | 'skinTemperature';
const COLOUR: Record<Metric, string> = { heartRate: '#dc2626', skinTemperature: '#0f766e' };

/**
 * One measured metric over the period: min / average / max in words, as the server measured them over the window
 * (true extremes from the rollups: skin temperature keeps no minimum), and the chart over the window asked for,
 * heart rate with its buckets' lowest and highest readings as a band.
 */
export function MetricPanel({
  history,
  metric,
  withDate,
}: {
  history: HistoryResponse;
  metric: Metric;
  withDate: boolean;
}) {
  const { t, i18n } = useTranslation('records');
  const summaryId = useId();
  const { points } = history;
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const span = useMemo(
    () => ({ from: Date.parse(history.from), to: Date.parse(history.to) }),
    [history.from, history.to],
  );
  const series = useMemo((): LineSeries[] => {
    const line: LineSeries = {
      label: t(`metrics.${metric}`),
      colour: COLOUR[metric],
      values: points.map((p) => p[metric] ?? null),
    };
    if (metric !== 'heartRate') return [line];
    return [
      {
        ...line,
        band: {
          lower: points.map((p) => p.heartRateMin ?? null),
          upper: points.map((p) => p.heartRateMax ?? null),
          labels: [t('range.min'), t('range.max')],
        },
      },
    ];
  }, [t, metric, points]);
  const summary = history.summary[metric];
  if (summary === null)
    return (
      <p data-testid="record-empty" className="text-sm text-slate-500">
        {t('empty.metric')}
      </p>
    );
  const figures: [key: 'min' | 'avg' | 'max', value: number][] =
    'min' in summary
      ? [
          ['min', summary.min],
          ['avg', summary.avg],
          ['max', summary.max],
        ]
      : [
          ['avg', summary.avg],
          ['max', summary.max],
        ];
  const show = (v: number) =>
    t(`values.${metric}`, { value: v.toFixed(metric === 'heartRate' ? 0 : 1) });
  return (
    <div data-testid={`record-panel-${metric}`}>
      <dl id={summaryId} className="mb-3 flex flex-wrap gap-x-8 gap-y-1 text-sm">
        {figures.map(([k, v]) => (
          <div key={k} className="flex gap-2">
            <dt className="text-slate-500">{t(`range.${k}`)}</dt>
            <dd
              data-testid={`record-${metric}-${k}`}
              className="font-semibold whitespace-nowrap text-slate-900 tabular-nums"
            >
              {show(v)}
            </dd>
          </div>
        ))}
      </dl>
      <LineChart
        times={times}
        series={series}
        window={span}
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
