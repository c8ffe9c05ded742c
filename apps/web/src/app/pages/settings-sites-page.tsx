import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { OrganizationScope } from '../../components/organization-scope';
import { SitesPanel } from '../../features/sites/components/sites-panel';

/**
 * /settings/sites: the organisation's sites, their plans and where gateways are placed (issue 17).
 * Organisation staff see their own; platform staff first pick the organisation.
 */
export function SettingsSitesPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.settingsSites')}</PageHeading>
      <OrganizationScope testId="sites-organization">
        {(clientId) => <SitesPanel organizationId={clientId} />}
      </OrganizationScope>
    </section>
  );
}
