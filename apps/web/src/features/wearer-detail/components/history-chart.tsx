import type { HistoryPoint } from '@wearable/domain';
import { useMemo } from 'react';
import { LineChart } from '../../../components/ui/line-chart';
import type { ChartMetric } from '../api/history-api';

export interface ChartSeries {
  metric: ChartMetric;
  label: string;
  colour: string;
  scale: 'bpm' | 'celsius';
}

interface HistoryChartProps {
  points: readonly HistoryPoint[];
  series: readonly ChartSeries[];
  axisLabels: { bpm: string; celsius: string };
  describedBy: string;
  label: string;
  /** The time axis and legend in the reader's language; days shown for long periods. */
  locale: string;
  withDate: boolean;
  /** The window asked for: the time axis spans it. */
  window?: { from: number; to: number } | undefined;
  /** The heart rate band's names (its buckets' lowest and highest readings). */
  bandLabels?: [string, string];
  timeLabel: string;
}

/** Heart rate (left axis) and temperatures (right axis) over a period, on the shared line chart. */
export function HistoryChart({
  points,
  series,
  axisLabels,
  describedBy,
  label,
  locale,
  withDate,
  window: span,
  bandLabels,
  timeLabel,
}: HistoryChartProps) {
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const lines = useMemo(
    () =>
      series.map((s) => ({
        label: s.label,
        colour: s.colour,
        scale: s.scale,
        values: points.map((p) => p[s.metric] ?? null),
        ...(s.metric === 'heartRate' && bandLabels
          ? {
              band: {
                lower: points.map((p) => p.heartRateMin ?? null),
                upper: points.map((p) => p.heartRateMax ?? null),
                labels: bandLabels,
              },
            }
          : {}),
      })),
    [points, series, bandLabels],
  );
  const axes = useMemo(
    () => [
      { scale: 'bpm', label: axisLabels.bpm },
      { scale: 'celsius', label: axisLabels.celsius },
    ],
    [axisLabels],
  );
  return (
    <LineChart
      times={times}
      series={lines}
      axes={axes}
      label={label}
      describedBy={describedBy}
      locale={locale}
      withDate={withDate}
      {...(span ? { window: span } : {})}
      timeLabel={timeLabel}
      height={280}
      testId="history-chart"
    />
  );
}
