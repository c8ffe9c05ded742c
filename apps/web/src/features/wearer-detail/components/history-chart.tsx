import type { HistoryPoint } from '@wearable/domain';
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
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
  timeLabel: string;
}

const HEIGHT = 280;

/** uPlot draws on a canvas; it is loaded only here, so other pages (and /login) never carry it. */
export function HistoryChart({ points, series, axisLabels, describedBy, label, locale, withDate, timeLabel }: HistoryChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void (async () => {
      const [{ default: UPlot }] = await Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]);
      if (cancelled) return;
      const xs = points.map((p) => Date.parse(p.at) / 1000);
      const data: uPlot.AlignedData = [xs, ...series.map((s) => points.map((p) => p[s.metric] ?? null))];
      // 24-hour clock: "15:10" stays short in both languages, so ticks never overlap.
      const tick = new Intl.DateTimeFormat(locale, {
        ...(withDate ? { month: 'numeric', day: 'numeric' } : {}),
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
      const full = new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });
      const options: uPlot.Options = {
        width: Math.max(element.clientWidth, 280),
        height: HEIGHT,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, bpm: { auto: true }, celsius: { auto: true } },
        series: [{ label: timeLabel, value: (_u, v) => (v === null ? '--' : full.format(new Date(v * 1000))) }, ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, scale: s.scale, spanGaps: false }))],
        axes: [
          { stroke: '#475569', grid: { stroke: '#e2e8f0' }, space: withDate ? 100 : 60, values: (_u, splits) => splits.map((v) => tick.format(new Date(v * 1000))) },
          { scale: 'bpm', label: axisLabels.bpm, stroke: '#475569', grid: { stroke: '#e2e8f0' } },
          { scale: 'celsius', label: axisLabels.celsius, side: 1, stroke: '#475569', grid: { show: false } },
        ],
      };
      chart = new UPlot(options, data, element);
      observer = new ResizeObserver(() => chart?.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT }));
      observer.observe(element);
    })();
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [points, series, axisLabels, locale, withDate, timeLabel]);

  return <div ref={box} data-testid="history-chart" role="img" aria-label={label} aria-describedby={describedBy} style={{ minHeight: HEIGHT }} />;
}
