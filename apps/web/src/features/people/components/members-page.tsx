import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeading } from '../../../components/ui/page-heading';
import { useCurrentUser } from '../../../lib/current-user';
import { PeoplePanel } from './people-panel';

/** /members: the signed-in staff member's organisation (platform staff: every wearer they reach). */
export function MembersPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="space-y-4">
      <PageHeading>{t('pages.members')}</PageHeading>
      <PeoplePanel clientId={user?.mediromOrganizationId ?? null} />
    </div>
  );
}

/** /organization/{id}/member: the same for one organisation (platform staff). */
export function OrganizationMembersPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <div className="space-y-4">
      <PageHeading>{t('pages.organizationMembers')}</PageHeading>
      <PeoplePanel clientId={id} />
    </div>
  );
}
