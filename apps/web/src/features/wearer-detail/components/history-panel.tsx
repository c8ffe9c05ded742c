import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import {
  HISTORY_PERIODS,
  summarise,
  useHistory,
  windowOf,
  type HistoryPeriod,
} from '../api/history-api';
import { HistoryChart, type ChartSeries } from './history-chart';
import { chartColour } from '../../../components/ui/chart-colour';
import { useTheme } from '../../../lib/theme';

const SERIES: readonly ChartSeries[] = [
  { metric: 'heartRate', label: 'heartRate', colour: '#be123c', scale: 'bpm' },
  { metric: 'skinTemperature', label: 'skinTemperature', colour: '#0f766e', scale: 'celsius' },
  { metric: 'wbgt', label: 'wbgt', colour: '#b45309', scale: 'celsius' },
];

/** How far a reading may precede an answer and still be missing from it (the server writes
 * readings' rollups every ROLLUP_FLUSH_MS, 2 s by default, and a page's clock may differ). */
const UNWRITTEN_MS = 15_000;
const EMPTY_RETRY_MS = 3_000;
const EMPTY_RETRIES = 3;

/**
 * Heart rate, skin temperature (and WBGT when the gateway measures it) over 24 h or 7 days.
 * `lastSeenAt` is the wearer's latest reading as the live summary has it: while the chart has
 * nothing to show and that reading is about as new as the chart's answer or newer (a wearer's
 * first readings, or a page opened a moment before the server wrote them), the history is asked
 * again within seconds, not at the next minute's refresh.
 */
export function HistoryPanel({ uid, lastSeenAt }: { uid: string; lastSeenAt?: string | null }) {
  const { theme } = useTheme();
  const { t, i18n } = useTranslation(['live', 'common']);
  const [period, setPeriod] = useState<HistoryPeriod>('24h');
  const history = useHistory(uid, period);
  const points = useMemo(() => history.data?.points ?? [], [history.data]);
  const shown = useMemo(
    () =>
      SERIES.filter(
        (s) => s.metric !== 'wbgt' || points.some((p) => typeof p.wbgt === 'number'),
      ).map((s) => ({
        ...s,
        label: t(`live:metrics.${s.metric}`),
      })),
    [points, t],
  );
  const axisLabels = useMemo(
    () => ({ bpm: t('live:chart.bpm'), celsius: t('live:chart.celsius') }),
    [t],
  );
  const hasData = shown.some((s) => summarise(history.data, s.metric) !== null);
  const span = useMemo(() => windowOf(history.data), [history.data]);
  const bandLabels = useMemo(
    (): [string, string] => [t('live:chart.min'), t('live:chart.max')],
    [t],
  );
  const { isSuccess, dataUpdatedAt, refetch } = history;
  const retries = useRef({ seen: '', count: 0 });
  useEffect(() => {
    if (!isSuccess || hasData || !lastSeenAt) return;
    // The reading is no older than the answer (by the server's write interval, with a margin): the
    // answer may have come before the server wrote it. Asked again a few times, 3 s apart.
    if (Date.parse(lastSeenAt) < dataUpdatedAt - UNWRITTEN_MS) return;
    if (retries.current.seen !== lastSeenAt) retries.current = { seen: lastSeenAt, count: 0 };
    if (retries.current.count >= EMPTY_RETRIES) return;
    retries.current.count++;
    const timer = setTimeout(() => void refetch(), EMPTY_RETRY_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, hasData, lastSeenAt, dataUpdatedAt, refetch]);
  // Heart rate readings are whole beats: its extremes are too; means and temperatures to one decimal.
  const format = (metric: string, key: 'min' | 'avg' | 'max', value: number | null) =>
    value === null
      ? '—'
      : value.toFixed(metric === 'heartRate' && key !== 'avg' && Number.isInteger(value) ? 0 : 1);
  const cell = 'px-2 py-1 text-right tabular-nums whitespace-nowrap';

  return (
    <section
      aria-labelledby="history-title"
      data-testid="history-panel"
      className="mt-8 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="history-title" className="text-base font-semibold text-slate-900">
          {t('live:chart.title')}
        </h2>
        <div role="group" aria-label={t('live:chart.period')} className="flex gap-1">
          {HISTORY_PERIODS.map((p) => (
            <Button
              key={p}
              variant={p === period ? 'primary' : 'outline'}
              className="min-h-8! px-3 py-0"
              aria-pressed={p === period}
              data-testid={`history-period-${p}`}
              onClick={() => setPeriod(p)}
            >
              {t(`live:chart.periods.${p}`)}
            </Button>
          ))}
        </div>
      </div>
      <QueryState
        isPending={history.isPending}
        isError={history.isError}
        isEmpty={!hasData}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: t('live:chart.empty'),
          retry: t('common:common.retry'),
        }}
        onRetry={() => void history.refetch()}
      >
        <HistoryChart
          points={points}
          series={shown}
          axisLabels={axisLabels}
          describedBy="history-summary"
          label={t('live:chart.label', { period: t(`live:chart.periods.${period}`) })}
          locale={i18n.resolvedLanguage ?? 'ja'}
          withDate={period === '7d'}
          window={span}
          bandLabels={bandLabels}
          timeLabel={t('live:chart.time')}
        />
        <table
          id="history-summary"
          data-testid="history-summary"
          className="mt-4 w-full text-left text-sm"
        >
          <caption className="mb-1 text-left text-xs text-slate-500">
            {t('live:chart.summaryCaption', { period: t(`live:chart.periods.${period}`) })}
          </caption>
          <thead>
            <tr className="text-xs text-slate-500">
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('live:chart.metric')}
              </th>
              {(['min', 'avg', 'max'] as const).map((k) => (
                <th key={k} scope="col" className="px-2 py-1 text-right font-medium">
                  {t(`live:chart.${k}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((s) => {
              const summary = summarise(history.data, s.metric);
              return (
                <tr
                  key={s.metric}
                  className="border-t border-slate-100"
                  data-testid={`history-summary-${s.metric}`}
                >
                  <th scope="row" className="py-1 pr-2 font-medium text-slate-700">
                    <span
                      aria-hidden="true"
                      className="mr-2 inline-block size-2 rounded-full"
                      style={{ background: chartColour(s.colour, theme) }}
                    />
                    {s.label}
                  </th>
                  {(['min', 'avg', 'max'] as const).map((k) => (
                    <td key={k} className={cell}>
                      {summary ? format(s.metric, k, summary[k]) : '—'}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </QueryState>
    </section>
  );
}
