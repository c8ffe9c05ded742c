import type { SiteHeatChangeView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { formatLocalDateTime } from '../../../lib/date-format';
import { SiteHeatBadge } from './site-heat-badge';

/** A month's changes of the site heat level of a group's gateways (the heat-rule report's last table). */
export function SiteHeatChanges({ changes }: { changes: readonly SiteHeatChangeView[] }) {
  const { t, i18n } = useTranslation();
  const title = t('siteHeat.changesTitle');
  return (
    <section data-testid="site-heat-changes">
      <h3 className="mb-1 text-sm font-semibold text-slate-900">{title}</h3>
      {changes.length === 0 ? (
        <p className="text-sm text-slate-700">{t('siteHeat.noChanges')}</p>
      ) : (
        <div
          tabIndex={0}
          role="region"
          aria-label={title}
          className={`relative overflow-x-auto ${focusRing}`}
        >
          <table className="w-full text-sm">
            <thead>
              <tr className="border-b text-left text-xs text-slate-600">
                <th scope="col" className="px-2 py-1">
                  {t('siteHeat.cols.at')}
                </th>
                <th scope="col" className="px-2 py-1">
                  {t('siteHeat.cols.gateway')}
                </th>
                <th scope="col" className="px-2 py-1">
                  {t('siteHeat.cols.change')}
                </th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.id} className="border-b border-slate-100" data-testid="site-heat-change">
                  <th scope="row" className="px-2 py-1 text-left font-normal tabular-nums">
                    {formatLocalDateTime(c.at, i18n.resolvedLanguage)}
                  </th>
                  <td className="px-2 py-1">{c.gatewayName}</td>
                  <td className="px-2 py-1">
                    <span className="inline-flex flex-wrap items-center gap-1">
                      {t(`siteHeat.levels.${c.from}`)}
                      <span aria-hidden="true">→</span>
                      <span className="sr-only">{t('siteHeat.to')}</span>
                      <SiteHeatBadge level={c.to} wbgt={c.wbgt} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
