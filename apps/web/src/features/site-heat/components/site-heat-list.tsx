import type { SiteHeatView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { SiteHeatBadge } from './site-heat-badge';
import { useSiteHeatOf } from '../api/get-site-heat';

/**
 * The sites' heat levels as a list, one item per site (gateway): its name (and group), the badge.
 * Nothing when there is no site with WBGT.
 */
export function SiteHeatList({
  sites,
  showGroup = true,
  testId = 'site-heat-list',
}: {
  sites: readonly SiteHeatView[];
  showGroup?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (sites.length === 0) return null;
  return (
    <ul
      className="flex flex-wrap gap-x-4 gap-y-2"
      aria-label={t('siteHeat.title')}
      data-testid={testId}
    >
      {sites.map((site) => (
        <li
          key={site.gatewayId}
          className="flex min-w-0 flex-wrap items-center gap-2 text-sm"
          data-testid="site-heat-site"
          data-gateway={site.gatewayId}
        >
          <span className="break-words text-slate-800">
            {showGroup && site.groupName !== null
              ? t('siteHeat.site', { gateway: site.gatewayName, group: site.groupName })
              : site.gatewayName}
          </span>
          <SiteHeatBadge level={site.level} wbgt={site.wbgt} />
        </li>
      ))}
    </ul>
  );
}

/** /devices (and a group's devices): the heat level of each site of the list's organisations, above it. */
export function SiteHeatStrip({
  clientIds,
  groupId,
}: {
  clientIds: readonly string[];
  groupId?: string;
}) {
  const { t } = useTranslation();
  const sites = useSiteHeatOf(clientIds, groupId);
  if (sites.length === 0) return null;
  return (
    <section
      aria-labelledby="site-heat-heading"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-3"
      data-testid="site-heat-strip"
    >
      <h2 id="site-heat-heading" className="mb-2 text-sm font-semibold text-slate-900">
        {t('siteHeat.title')}
      </h2>
      <SiteHeatList sites={sites} />
    </section>
  );
}
