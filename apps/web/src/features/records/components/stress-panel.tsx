import { type HistoryResponse, STRESS_LEVELS } from '@wearable/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type LineAxis, LineChart } from '../../../components/ui/line-chart';
import { hoursAndMinutes, stressIndex, stressMinutes } from '../record-math';

const LEVEL_COLOUR = {
  NONE: 'bg-slate-300',
  LOW: 'bg-teal-400',
  MEDIUM: 'bg-amber-400',
  HIGH: 'bg-orange-500',
  OVERLOAD: 'bg-red-600',
} as const;

/** The stress levels on the chart's own scale, 0 none ... 4 overload, a little room above and below the lines. */
export const STRESS_RANGE: [number, number] = [-0.3, 4.3];
const STRESS_TICKS = STRESS_LEVELS.map((_, i) => i);

/**
 * Time at each stress level (the numbers, and a proportion bar) and the level over time on its real 0-4 scale,
 * each tick named by its level, over the window asked for.
 */
export function StressPanel({
  history,
  bucketMinutes,
  withDate,
}: {
  history: HistoryResponse;
  bucketMinutes: number;
  withDate: boolean;
}) {
  const { t, i18n } = useTranslation('records');
  const { points } = history;
  const span = useMemo(
    () => ({ from: Date.parse(history.from), to: Date.parse(history.to) }),
    [history.from, history.to],
  );
  const axes = useMemo(
    (): LineAxis[] => [
      {
        scale: 'stress',
        label: t('units.stress'),
        range: STRESS_RANGE,
        size: 72,
        ticks: {
          at: STRESS_TICKS,
          label: (v) => {
            const level = STRESS_LEVELS[Math.round(v)];
            return level === undefined ? '' : t(`stressLevels.${level}`);
          },
        },
      },
    ],
    [t],
  );
  const minutes = stressMinutes(points, bucketMinutes);
  const total = STRESS_LEVELS.reduce((s, l) => s + minutes[l], 0);
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const series = useMemo(
    () => [
      {
        label: t('metrics.stress'),
        colour: '#ea580c',
        scale: 'stress',
        values: points.map((p) => stressIndex(p.stressLevel)),
      },
    ],
    [t, points],
  );
  if (total === 0)
    return (
      <p data-testid="record-empty" className="text-sm text-slate-500">
        {t('empty.stress')}
      </p>
    );
  return (
    <div data-testid="record-panel-stress">
      <dl className="mb-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        {STRESS_LEVELS.map((level) => (
          <div key={level} className="flex items-center gap-2">
            <span aria-hidden="true" className={`size-3 rounded-sm ${LEVEL_COLOUR[level]}`} />
            <dt className="text-slate-600">{t(`stressLevels.${level}`)}</dt>
            <dd
              data-testid={`stress-${level}`}
              className="font-semibold text-slate-900 tabular-nums"
            >
              {t('values.duration', hoursAndMinutes(minutes[level]))}
            </dd>
          </div>
        ))}
      </dl>
      <div aria-hidden="true" className="mb-4 flex h-3 overflow-hidden rounded bg-slate-100">
        {STRESS_LEVELS.map((l) => (
          <div
            key={l}
            className={LEVEL_COLOUR[l]}
            style={{ width: `${(minutes[l] / total) * 100}%` }}
          />
        ))}
      </div>
      <p className="mb-1 text-xs text-slate-500">{t('stress.scale')}</p>
      <LineChart
        times={times}
        series={series}
        axes={axes}
        window={span}
        label={t('chart.label', { metric: t('metrics.stress') })}
        timeLabel={t('chart.time')}
        locale={i18n.resolvedLanguage ?? 'ja'}
        withDate={withDate}
        testId="record-chart"
      />
    </div>
  );
}
