import type { ClientOverview } from '@wearable/domain';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { QueryState } from '../../components/ui/query-state';
import { Table, Td, Th } from '../../components/ui/table';
import { paths } from '../../config/paths';
import { GatewayTable } from '../../features/gateways/components/gateway-table';
import { useOrganizationOverview } from '../../features/organizations/api/get-overview';
import { AppLink } from '../../lib/app-path';

const linkClass = `text-teal-800 underline-offset-4 hover:underline ${focusRing}`;

/** /organization/{id}: one organisation at a glance: groups, gateways with status, members, open alerts. */
export function OrganizationDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const overview = useOrganizationOverview(id);
  return (
    <section>
      <PageHeading>{overview.data?.name ?? t('pages.organizationDetail')}</PageHeading>
      <QueryState
        isPending={overview.isPending}
        isError={overview.isError}
        isEmpty={false}
        labels={{
          loading: t('common.loading'),
          error: t('organizationDetail.loadFailed'),
          empty: '',
          retry: t('common.retry'),
        }}
        onRetry={() => void overview.refetch()}
      >
        {overview.data && <Overview org={overview.data} />}
      </QueryState>
    </section>
  );
}

function Overview({ org }: { org: ClientOverview }) {
  const { t } = useTranslation();
  const offline = org.gateways.filter((g) => g.status === 'offline').length;
  const stats: { key: string; value: number; warn: boolean; to?: string }[] = [
    { key: 'groups', value: org.groups.length, warn: false },
    { key: 'gateways', value: org.gateways.length, warn: false },
    { key: 'offlineGateways', value: offline, warn: offline > 0 },
    {
      key: 'members',
      value: org.memberCount,
      warn: false,
      to: paths.organizations.members.build({ id: org.id }),
    },
    { key: 'wearers', value: org.wearerCount, warn: false },
    {
      key: 'openAlerts',
      value: org.openAlertCount,
      warn: org.openAlertCount > 0,
      to: paths.alertHistories.build(),
    },
  ];
  return (
    <div className="space-y-8">
      <dl
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
        data-testid="organization-stats"
      >
        {stats.map((s) => (
          <div key={s.key} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-sm text-slate-600">
              {s.to === undefined ? (
                t(`organizationDetail.stats.${s.key}`)
              ) : (
                <AppLink to={s.to} className={linkClass}>
                  {t(`organizationDetail.stats.${s.key}`)}
                </AppLink>
              )}
            </dt>
            <dd
              className={`text-2xl font-semibold ${s.warn ? 'text-red-700' : 'text-slate-900'}`}
              data-testid={`organization-stat-${s.key}`}
            >
              {s.value}
            </dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="org-groups-title">
        <h2 id="org-groups-title" className="mb-2 text-base font-semibold text-slate-900">
          {t('organizationDetail.groups')}
        </h2>
        {org.groups.length === 0 ? (
          <p className="text-sm text-slate-600">{t('groups.empty')}</p>
        ) : (
          <Table data-testid="organization-groups" label={t('organizationDetail.groups')}>
            <caption className="sr-only">{t('organizationDetail.groups')}</caption>
            <thead>
              <tr>
                <Th>{t('groups.name')}</Th>
                <Th>{t('groups.stats.wearers')}</Th>
                <Th>{t('groups.stats.openAlerts')}</Th>
                <Th>{t('organizationDetail.groupGateways')}</Th>
              </tr>
            </thead>
            <tbody>
              {org.groups.map((g) => (
                <tr key={g.id}>
                  <Td>
                    <AppLink
                      to={paths.groups.devices.build({ groupId: g.id })}
                      className={linkClass}
                    >
                      {g.name}
                    </AppLink>
                  </Td>
                  <Td>{g.wearerCount}</Td>
                  <Td className={g.openAlertCount > 0 ? 'font-semibold text-red-700' : undefined}>
                    {g.openAlertCount}
                  </Td>
                  <Td>
                    <AppLink
                      to={paths.groups.gateways.build({ groupId: g.id })}
                      className={linkClass}
                    >
                      {t('organizationDetail.gatewaysOf', {
                        count: org.gateways.filter((gw) => gw.groupId === g.id).length,
                      })}
                      <span className="sr-only">{t('groups.links.of', { name: g.name })}</span>
                    </AppLink>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>

      <section aria-labelledby="org-gateways-title">
        <h2 id="org-gateways-title" className="mb-2 text-base font-semibold text-slate-900">
          {t('organizationDetail.gateways')}
        </h2>
        {org.gateways.length === 0 ? (
          <p className="text-sm text-slate-600">{t('gateways.empty')}</p>
        ) : (
          <GatewayTable
            gateways={org.gateways}
            caption={t('organizationDetail.gateways')}
            linkTo={(g) => paths.organizations.gateway.build({ id: org.id, gatewayId: g.id })}
          />
        )}
      </section>

      <p className="text-sm">
        <AppLink
          to={paths.organizations.members.build({ id: org.id })}
          className={linkClass}
          data-testid="organization-members-link"
        >
          {t('organizationDetail.membersLink', { count: org.memberCount })}
        </AppLink>
      </p>
    </div>
  );
}
