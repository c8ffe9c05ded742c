import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { QueryState } from '../../components/ui/query-state';
import { useCurrentUser } from '../../lib/current-user';
import { AdminsPanel } from '../../features/members/components/admins-page';
import { useOrganizations } from '../../features/organizations/api/organizations-api';

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600 sm:w-80';

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
      {user.mediromOrganizationId !== null ? (
        <AdminsPanel clientId={user.mediromOrganizationId} user={user} />
      ) : (
        <PlatformAdmins user={user} />
      )}
    </section>
  );
}

function PlatformAdmins({ user }: { user: { role: Parameters<typeof AdminsPanel>[0]['user']['role']; uid: string } }) {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const [clientId, setClientId] = useState('');
  const rows = organizations.data ?? [];
  return (
    <QueryState
      isPending={organizations.isPending}
      isError={organizations.isError}
      isEmpty={rows.length === 0}
      labels={{ loading: t('common.loading'), error: t('common.loadFailed'), empty: t('organizations.empty'), retry: t('common.retry') }}
      onRetry={() => void organizations.refetch()}
    >
      <label className="mb-6 block text-sm font-medium text-slate-700">
        {t('admins.organization')}
        <select value={clientId} onChange={(e) => setClientId(e.target.value)} className={selectClass} data-testid="admins-organization">
          <option value="">{t('admins.pickOrganization')}</option>
          {rows.map((org) => <option key={org.id} value={org.id}>{org.name}</option>)}
        </select>
      </label>
      {clientId !== '' && <AdminsPanel key={clientId} clientId={clientId} user={user} />}
    </QueryState>
  );
}
