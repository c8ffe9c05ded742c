import type { WearerSummary } from '@wearable/domain';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { coverageOf } from '../api/summary-api';
import type { LiveStatus } from '../hooks/live-status';

/** Who is not monitored right now, as plainly as alerts: counts above the wearer table. */
export function CoverageStrip({
  wearers,
  live,
}: {
  wearers: readonly WearerSummary[];
  live: LiveStatus;
}) {
  const { t } = useTranslation('live');
  const coverage = coverageOf(wearers);
  const items = [
    { key: 'notWorn', count: coverage.notWorn, tone: 'amber' },
    { key: 'offline', count: coverage.offline, tone: 'slate' },
    { key: 'lowBattery', count: coverage.lowBattery, tone: 'amber' },
    { key: 'urgent', count: coverage.urgent, tone: 'red' },
  ] as const;
  return (
    <section
      aria-labelledby="coverage-title"
      data-testid="coverage-strip"
      className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3"
    >
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="coverage-title" className="text-sm font-semibold text-slate-700">
          {t('coverage.title', { count: coverage.total })}
        </h2>
        <p className="text-xs text-slate-500" data-testid="live-status">
          {t(live === 'open' ? 'status.live' : 'status.polling')}
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {items.map(({ key, count, tone }) => (
          <li
            key={key}
            data-testid={`coverage-${key}`}
            className={clsx(
              'rounded-md px-3 py-2 text-sm',
              count === 0 && 'bg-slate-50 text-slate-600',
              count > 0 && tone === 'amber' && 'bg-amber-50 text-amber-900',
              count > 0 && tone === 'red' && 'bg-red-50 text-red-800',
              count > 0 && tone === 'slate' && 'bg-slate-100 text-slate-800',
            )}
          >
            <span className="block text-xs">{t(`coverage.${key}`)}</span>
            <span className="text-lg font-semibold tabular-nums">
              {t('coverage.count', { count })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
