import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { BulkAlertSettings } from '../../features/alert-settings';
import { OrganizationScope } from '../../components/organization-scope';
import { AppLink } from '../../lib/app-path';

/** The namespaces the bulk form reads (the form's words, the settings' words, the alert type names). */
const NAMESPACES = ['staff-settings', 'records', 'alerts', 'common'];

/** /devices/alert-settings: bulk alert settings for the organisation's wearers (platform staff pick the organisation). */
export function DevicesAlertSettingsPage() {
  const { t, ready } = useTranslation(NAMESPACES);
  return (
    <section>
      <PageHeading>{t('common:pages.devicesAlertSettings')}</PageHeading>
      {ready ? (
        <OrganizationScope testId="bulk-organization">
          {(clientId) => (
            <BulkAlertSettings
              scope={{ clientId }}
              typeLabel={(type) => t(`alerts:types.${type}`)}
            />
          )}
        </OrganizationScope>
      ) : (
        <Spinner label={t('common:common.loading')} />
      )}
    </section>
  );
}

/** /groups/{groupId}/devices/alert-settings: the same for one group's wearers. */
export function GroupDevicesAlertSettingsPage() {
  const { groupId = '' } = useParams();
  const { t, ready } = useTranslation(NAMESPACES);
  return (
    <section>
      <PageHeading
        actions={
          <AppLink
            to={paths.groups.list.build()}
            className="text-sm text-teal-800 underline underline-offset-4"
          >
            {t('staff-settings:backToGroups')}
          </AppLink>
        }
      >
        {t('common:pages.groupDevicesAlertSettings')}
      </PageHeading>
      {ready ? (
        <BulkAlertSettings
          key={groupId}
          scope={{ groupId }}
          typeLabel={(type) => t(`alerts:types.${type}`)}
        />
      ) : (
        <Spinner label={t('common:common.loading')} />
      )}
    </section>
  );
}
