import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useGroups } from '../../../lib/use-groups';
import { OrganizationScope } from '../../../components/organization-scope';
import { GatewayDetailView } from './gateway-detail';
import { GatewayList } from './gateway-list';

const linkClass = `inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-teal-800 hover:bg-slate-50 ${focusRing}`;

function ManageLink() {
  const { t } = useTranslation();
  if (!useCan('gateway:manage')) return null;
  return (
    <AppLink
      to={paths.settings.gateways.build()}
      className={linkClass}
      data-testid="gateways-manage"
    >
      {t('gateways.manage')}
    </AppLink>
  );
}

/** /gateways: the organisation's gateways with their status. */
export function GatewaysPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading actions={<ManageLink />}>{t('pages.gateways')}</PageHeading>
      <OrganizationScope testId="gateways-organization">
        {(clientId) => (
          <GatewayList
            clientId={clientId}
            linkTo={(g) =>
              paths.gateways.detail.build({ organizationId: clientId, gatewayId: g.id })
            }
          />
        )}
      </OrganizationScope>
    </section>
  );
}

/** /groups/{groupId}/gateways: the gateways of one group. */
export function GroupGatewaysPage() {
  const { t } = useTranslation();
  const { groupId = '' } = useParams();
  return (
    <section>
      <PageHeading actions={<ManageLink />}>{t('pages.groupGateways')}</PageHeading>
      <OrganizationScope testId="group-gateways-organization">
        {(clientId) => (
          <>
            <GroupName clientId={clientId} groupId={groupId} />
            <GatewayList
              clientId={clientId}
              groupId={groupId}
              linkTo={(g) =>
                paths.gateways.detail.build({ organizationId: clientId, gatewayId: g.id })
              }
            />
          </>
        )}
      </OrganizationScope>
    </section>
  );
}

function GroupName({ clientId, groupId }: { clientId: string; groupId: string }) {
  const { t } = useTranslation();
  const name = useGroups(clientId).data?.find((g) => g.id === groupId)?.name;
  if (name === undefined) return null;
  return (
    <p className="mb-4 text-sm text-slate-700" data-testid="group-gateways-group">
      {t('gateways.ofGroup', { name })}{' '}
      <AppLink to={paths.groups.list.build()} className={`text-teal-800 underline ${focusRing}`}>
        {t('gateways.allGroups')}
      </AppLink>
    </p>
  );
}

/** /gateways/{organizationId}/{gatewayId}. */
export function GatewayDetailPage() {
  const { t } = useTranslation();
  const { gatewayId = '' } = useParams();
  const back = (
    <AppLink to={paths.gateways.list.build()} className={linkClass}>
      {t('gateways.backToList')}
    </AppLink>
  );
  return <GatewayDetailView gatewayId={gatewayId} back={back} />;
}

/** /organization/{id}/{gatewayId}: the same detail, reached from an organisation (platform staff). */
export function OrganizationGatewayPage() {
  const { t } = useTranslation();
  const { id = '', gatewayId = '' } = useParams();
  const back = (
    <AppLink to={paths.organizations.detail.build({ id })} className={linkClass}>
      {t('gateways.backToOrganization')}
    </AppLink>
  );
  return <GatewayDetailView gatewayId={gatewayId} back={back} />;
}
