import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { formatLocalDateTime } from '../../lib/date-format';
import { useTheme } from '../../lib/theme';
import { chartColour } from './chart-colour';
import { tickFormatter, timeTicks } from './time-ticks';

export interface LineSeries {
  label: string;
  colour: string;
  /** One value per x; null is a gap (nothing measured). */
  values: readonly (number | null)[];
  /** The y axis this series is drawn against (see `axes`); the first axis by default. */
  scale?: string;
  /** Each x's lowest and highest value (a bucket's min / max), drawn as a shaded band around the line. */
  band?: {
    lower: readonly (number | null)[];
    upper: readonly (number | null)[];
    labels: [string, string];
  };
}

/** A y axis: the left one first; a second one is drawn on the right without its own grid. */
export interface LineAxis {
  scale: string;
  label: string;
  /** A fixed range (a scale with its own meaning, as stress 0-4) instead of one fitted to the data. */
  range?: [number, number];
  /** Fixed ticks with their words (the stress levels' names). */
  ticks?: { at: readonly number[]; label: (value: number) => string };
  /** Room for the tick labels in CSS px (long words need more than numbers). */
  size?: number;
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
  /** The window asked for (epoch ms): the x axis spans it whatever the data covers. */
  window?: { from: number; to: number };
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
  window: span,
  label,
  describedBy,
  height = 240,
  testId = 'line-chart',
}: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  // A canvas takes no CSS: the axes are drawn in the palette's colours of the theme on screen, again when it changes.
  const { theme } = useTheme();

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
      const banded = series.flatMap((s, i) => (s.band ? [{ s, i }] : []));
      const data: uPlot.AlignedData = [
        times.map((t) => t / 1000),
        ...series.map((s) => [...s.values]),
        ...banded.flatMap(({ s }) => [[...s.band!.upper], [...s.band!.lower]]),
      ];
      const width = () => Math.max(element.clientWidth, 280);
      const palette = getComputedStyle(element);
      const axisStroke = palette.getPropertyValue('--color-slate-600').trim() || '#475569';
      const gridStroke = palette.getPropertyValue('--color-slate-200').trim() || '#e2e8f0';
      const yAxes = axes ?? [{ scale: 'y', label: yLabel }];
      const defaultScale = yAxes[0]?.scale ?? 'y';
      const from = span?.from ?? times[0] ?? Date.now();
      const to = span?.to ?? times.at(-1) ?? from;
      // One tick per ~90 px (~130 px with dates): 24-hour labels never overlap, even at 360 px.
      const ticksFor = (px: number) =>
        timeTicks(from, to, Math.max(2, Math.floor(px / (withDate ? 130 : 90))));
      const bandSeries = banded.flatMap(({ s }) =>
        s.band!.labels.map((bandLabel) => ({
          label: bandLabel,
          stroke: `${chartColour(s.colour, theme)}55`,
          width: 1,
          scale: s.scale ?? defaultScale,
          spanGaps: false,
        })),
      );
      chart = new UPlot(
        {
          width: width(),
          height,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: { time: true, ...(span ? { range: [span.from / 1000, span.to / 1000] } : {}) },
            ...Object.fromEntries(
              yAxes.map((a) => [
                a.scale,
                a.range ? { auto: false, range: a.range } : { auto: true },
              ]),
            ),
          },
          bands: banded.map(({ s }, k) => ({
            series: [series.length + 1 + 2 * k, series.length + 2 + 2 * k] as [number, number],
            fill: `${chartColour(s.colour, theme)}22`,
          })),
          series: [
            {
              ...(timeLabel === undefined ? {} : { label: timeLabel }),
              value: (_u, v) =>
                v === null ? '--' : formatLocalDateTime(new Date(v * 1000), locale),
            },
            ...series.map((s) => ({
              label: s.label,
              stroke: chartColour(s.colour, theme),
              width: 2,
              scale: s.scale ?? defaultScale,
              spanGaps: false,
            })),
            ...bandSeries,
          ],
          axes: [
            {
              stroke: axisStroke,
              grid: { stroke: gridStroke },
              splits: (u) => ticksFor(u.bbox.width / devicePixelRatio).at.map((t) => t / 1000),
              values: (u, splits) => {
                const label = tickFormatter(ticksFor(u.bbox.width / devicePixelRatio), locale);
                return splits.map((v) => label(v * 1000));
              },
            },
            ...yAxes.map((a, i) => ({
              scale: a.scale,
              label: a.label,
              stroke: axisStroke,
              ...(a.size === undefined ? {} : { size: a.size }),
              ...(a.ticks
                ? {
                    splits: () => [...a.ticks!.at],
                    values: (_u: uPlot, splits: number[]) => splits.map((v) => a.ticks!.label(v)),
                  }
                : {}),
              ...(i === 0 ? { grid: { stroke: gridStroke } } : { side: 1, grid: { show: false } }),
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
  }, [times, series, yLabel, axes, timeLabel, locale, withDate, span, height, theme]);

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
