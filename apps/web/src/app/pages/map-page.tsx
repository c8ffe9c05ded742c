import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { UnassignedAlertsBanner } from '../../features/alerts';
import { PlaceMap } from '../../features/map/components/place-map';
import { OrganizationScope } from '../../components/organization-scope';

/**
 * /map: where everyone is now (issue 17). Organisation staff see their own organisation (a group
 * manager their groups); platform staff first pick the organisation.
 */
export function MapPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.map')}</PageHeading>
      {/* An SOS from a device no wearer holds is at its gateway's place, not a person's (issue 34). */}
      <UnassignedAlertsBanner />
      <OrganizationScope testId="map-organization">
        {(clientId) => <PlaceMap organizationId={clientId} />}
      </OrganizationScope>
    </section>
  );
}
