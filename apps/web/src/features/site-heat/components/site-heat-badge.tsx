import type { SiteHeatLevel } from '@wearable/domain';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';

const COLOURS: Record<SiteHeatLevel, string> = {
  NORMAL: 'bg-slate-50 text-slate-800 ring-slate-300',
  CAUTION: 'bg-amber-50 text-amber-900 ring-amber-300',
  SEVERE: 'bg-orange-50 text-orange-900 ring-orange-400',
  DANGER: 'bg-red-50 text-red-800 ring-red-300',
};

/**
 * A site's heat level and latest WBGT, e.g. 「危険 WBGT 31.4」: the words carry the level, the colour
 * only repeats it (NORMAL grey, CAUTION amber, SEVERE orange, DANGER red).
 */
export function SiteHeatBadge({ level, wbgt }: { level: SiteHeatLevel; wbgt: number | null }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="site-heat-badge"
      data-level={level}
      className={clsx(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        COLOURS[level],
      )}
    >
      <span>{t(`siteHeat.levels.${level}`)}</span>
      <span className="tabular-nums">
        {wbgt === null ? t('siteHeat.noWbgt') : t('siteHeat.wbgt', { value: wbgt.toFixed(1) })}
      </span>
    </span>
  );
}
