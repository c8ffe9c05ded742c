import type { GroupLiveState, SiteHeatView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { NextStep } from '../../components/ui/next-step';
import { QueryState } from '../../components/ui/query-state';
import { paths } from '../../config/paths';
import { AppLink } from '../../lib/app-path';
import { formatLocalDateTime } from '../../lib/date-format';
import { useCan } from '../../lib/use-can';
import { OrganizationScope } from '../../components/organization-scope';
import { SiteHeatList, useSiteHeat } from '../../features/site-heat';
import { useGroups } from '../../lib/use-groups';

const linkClass = `inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-teal-800 hover:bg-slate-50 ${focusRing}`;

/** /groups: the organisation's groups with their live state, each leading to its wearers and notice settings. */
export function GroupsPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading actions={<ManageLink />}>{t('pages.groups')}</PageHeading>
      <OrganizationScope testId="groups-organization">
        {(clientId) => <GroupCards clientId={clientId} />}
      </OrganizationScope>
    </section>
  );
}

function ManageLink() {
  const { t } = useTranslation();
  if (!useCan('group:manage')) return null;
  return (
    <AppLink to={paths.settings.groups.build()} className={linkClass} data-testid="groups-manage">
      {t('groups.manage')}
    </AppLink>
  );
}

function GroupCards({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const groups = useGroups(clientId);
  const siteHeat = useSiteHeat(clientId);
  const rows = groups.data ?? [];
  const mayManage = useCan('group:manage', { organizationId: clientId });
  return (
    <QueryState
      emptyAction={
        mayManage && (
          <NextStep
            text={t('groups.emptyNext')}
            to={paths.settings.groups.build()}
            label={t('groups.emptyNextLink')}
            testId="groups-empty-next"
          />
        )
      }
      isPending={groups.isPending}
      isError={groups.isError}
      isEmpty={rows.length === 0}
      labels={{
        loading: t('common.loading'),
        error: t('common.loadFailed'),
        empty: t('groups.empty'),
        retry: t('common.retry'),
      }}
      onRetry={() => void groups.refetch()}
    >
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="group-list">
        {rows.map((group) => (
          <GroupCard
            key={group.id}
            group={group}
            sites={(siteHeat.data ?? []).filter((s) => s.groupId === group.id)}
          />
        ))}
      </ul>
    </QueryState>
  );
}

/** Who is on call now and next (the rota is on the group's notice page). */
function OnCallLine({ onCall }: { onCall: NonNullable<GroupLiveState['onCall']> }) {
  const { t, i18n } = useTranslation();
  const names = (list: string[]) => (list.length ? list.join('・') : t('groups.onCall.nobody'));
  return (
    <p className="mt-2 text-sm break-words text-slate-700" data-testid="group-on-call">
      <span className="font-medium text-slate-900">{t('groups.onCall.label')}</span>{' '}
      {names(onCall.now)}
      {t('groups.onCall.until', { at: formatLocalDateTime(onCall.until, i18n.language) })}
      {' · '}
      {t('groups.onCall.next', { names: names(onCall.next) })}
    </p>
  );
}

/** Counts that need someone's attention are coloured, so a glance down the cards finds them. */
function GroupCard({ group, sites }: { group: GroupLiveState; sites: SiteHeatView[] }) {
  const { t } = useTranslation();
  const stats: { key: string; value: number; warn: boolean }[] = [
    { key: 'wearers', value: group.wearerCount, warn: false },
    { key: 'notWorn', value: group.notWornCount, warn: group.notWornCount > 0 },
    { key: 'offline', value: group.offlineCount, warn: group.offlineCount > 0 },
    { key: 'openAlerts', value: group.openAlertCount, warn: group.openAlertCount > 0 },
    { key: 'gateways', value: group.gatewayCount, warn: false },
  ];
  return (
    <li
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="group-card"
    >
      <h2 className="text-lg font-semibold break-words text-slate-900">{group.name}</h2>
      {sites.length > 0 && (
        <div className="mt-2">
          <SiteHeatList sites={sites} showGroup={false} testId="group-site-heat" />
        </div>
      )}
      {group.onCall && <OnCallLine onCall={group.onCall} />}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {stats.map((stat) => (
          <div
            key={stat.key}
            className="flex items-baseline justify-between gap-2 border-b border-slate-100 pb-1"
          >
            <dt className="text-slate-600">{t(`groups.stats.${stat.key}`)}</dt>
            <dd
              className={stat.warn ? 'font-semibold text-red-700' : 'font-semibold text-slate-900'}
              data-testid={`group-${stat.key}`}
            >
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        <AppLink
          to={paths.groups.devices.build({ groupId: group.id })}
          className={linkClass}
          data-testid="group-devices-link"
        >
          {t('groups.links.devices')}{' '}
          <span className="sr-only">{t('groups.links.of', { name: group.name })}</span>
        </AppLink>
        <AppLink
          to={paths.groups.alertNoticeSettings.build({ groupId: group.id })}
          className={linkClass}
          data-testid="group-notice-link"
        >
          {t('groups.links.noticeSettings')}{' '}
          <span className="sr-only">{t('groups.links.of', { name: group.name })}</span>
        </AppLink>
        <AppLink
          to={paths.groups.heatRule.build({ groupId: group.id })}
          className={linkClass}
          data-testid="group-heat-rule-link"
        >
          {t('groups.links.heatRule')}{' '}
          <span className="sr-only">{t('groups.links.of', { name: group.name })}</span>
        </AppLink>
        <AppLink
          to={paths.groups.nightRound.build({ groupId: group.id })}
          className={linkClass}
          data-testid="group-night-round-link"
        >
          {t('groups.links.nightRound')}{' '}
          <span className="sr-only">{t('groups.links.of', { name: group.name })}</span>
        </AppLink>
      </div>
    </li>
  );
}
