import { useTranslation } from 'react-i18next';
import { useSiteHeat } from '../api/get-site-heat';
import { SiteHeatList } from './site-heat-list';

/** The group's sites now: each gateway's level and latest WBGT, whether the heat rule applies today. */
export function SiteHeatNow({ clientId, groupId }: { clientId: string; groupId: string }) {
  const { t } = useTranslation();
  const sites = useSiteHeat(clientId, groupId);
  const list = sites.data ?? [];
  return (
    <section aria-labelledby="site-heat-now-heading" data-testid="site-heat-now">
      <h2 id="site-heat-now-heading" className="mb-2 text-base font-semibold text-slate-900">
        {t('siteHeat.current')}
      </h2>
      {sites.isPending ? null : list.length === 0 ? (
        <p className="text-sm text-slate-700">{t('siteHeat.noSites')}</p>
      ) : (
        <>
          <SiteHeatList sites={list} showGroup={false} />
          {list.some((s) => s.heatRuleAppliesToday) && (
            <p className="mt-2 text-sm font-medium text-slate-900">{t('siteHeat.heatRuleToday')}</p>
          )}
        </>
      )}
    </section>
  );
}
