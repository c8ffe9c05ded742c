import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { formatLocalDateTime } from '../../lib/date-format';

export interface LineSeries {
  label: string;
  colour: string;
  /** One value per x; null is a gap (nothing measured). */
  values: readonly (number | null)[];
  /** The y axis this series is drawn against (see `axes`); the first axis by default. */
  scale?: string;
}

/** A y axis: the left one first; a second one is drawn on the right without its own grid. */
export interface LineAxis {
  scale: string;
  label: string;
}

interface LineChartProps {
  /** Epoch milliseconds, ascending. */
  times: readonly number[];
  series: readonly LineSeries[];
  /** The y axis label when there is one axis; with `axes`, each axis has its own. */
  yLabel?: string;
  axes?: readonly LineAxis[];
  /** The legend's name for the time column (uPlot says "Time" otherwise). */
  timeLabel?: string;
  /** Tick and legend times in this locale, 24-hour; with the date when the span is days. */
  locale?: string;
  withDate?: boolean;
  /** What the chart shows, for screen readers (a canvas says nothing by itself). */
  label: string;
  describedBy?: string;
  height?: number;
  testId?: string;
}

/**
 * A time line chart on uPlot. uPlot is imported only inside the effect, so it lands in its own
 * chunk and /login (and any page without a chart) never loads it.
 */
export function LineChart({
  times,
  series,
  yLabel = '',
  axes,
  timeLabel,
  locale = 'ja',
  withDate = false,
  label,
  describedBy,
  height = 240,
  testId = 'line-chart',
}: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    const draw = async () => {
      const [{ default: UPlot }] = await Promise.all([
        import('uplot'),
        import('uplot/dist/uPlot.min.css'),
      ]);
      if (cancelled) return;
      const data: uPlot.AlignedData = [
        times.map((t) => t / 1000),
        ...series.map((s) => [...s.values]),
      ];
      const width = () => Math.max(element.clientWidth, 280);
      // 24-hour clock: "15:10" stays short in both languages, so ticks never overlap.
      const tick = new Intl.DateTimeFormat(locale, {
        ...(withDate ? { month: 'numeric', day: 'numeric' } : {}),
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
      const yAxes = axes ?? [{ scale: 'y', label: yLabel }];
      const defaultScale = yAxes[0]?.scale ?? 'y';
      chart = new UPlot(
        {
          width: width(),
          height,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: { time: true },
            ...Object.fromEntries(yAxes.map((a) => [a.scale, { auto: true }])),
          },
          series: [
            {
              ...(timeLabel === undefined ? {} : { label: timeLabel }),
              value: (_u, v) =>
                v === null ? '--' : formatLocalDateTime(new Date(v * 1000), locale),
            },
            ...series.map((s) => ({
              label: s.label,
              stroke: s.colour,
              width: 2,
              scale: s.scale ?? defaultScale,
              spanGaps: false,
            })),
          ],
          axes: [
            {
              stroke: '#475569',
              grid: { stroke: '#e2e8f0' },
              space: withDate ? 100 : 60,
              values: (_u, splits) => splits.map((v) => tick.format(new Date(v * 1000))),
            },
            ...yAxes.map((a, i) => ({
              scale: a.scale,
              label: a.label,
              stroke: '#475569',
              ...(i === 0 ? { grid: { stroke: '#e2e8f0' } } : { side: 1, grid: { show: false } }),
            })),
          ],
        },
        data,
        element,
      );
      observer = new ResizeObserver(() => chart?.setSize({ width: width(), height }));
      observer.observe(element);
    };
    // A chart that cannot draw (no canvas, a failed chunk load) leaves its box empty; the numbers
    // beside it still tell the story, so the page must not break.
    draw().catch(() => undefined);
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [times, series, yLabel, axes, timeLabel, locale, withDate, height]);

  return (
    <div
      ref={box}
      data-testid={testId}
      role="img"
      aria-label={label}
      aria-describedby={describedBy}
      style={{ minHeight: height }}
    />
  );
}
