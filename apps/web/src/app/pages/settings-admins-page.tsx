import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { useCurrentUser } from '../../lib/current-user';
import { AdminsPanel } from '../../features/members/components/admins-page';
import { OrganizationScope } from '../../components/organization-scope';

/**
 * /settings/admins: an organisation's staff. Organisation staff see their own; platform staff first pick the
 * organisation (the list needs its clientId).
 */
export function SettingsAdminsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (user === null) return null;
  return (
    <section>
      <PageHeading>{t('pages.settingsAdmins')}</PageHeading>
      <OrganizationScope testId="admins-organization">
        {(clientId) => <AdminsPanel clientId={clientId} user={user} />}
      </OrganizationScope>
    </section>
  );
}
