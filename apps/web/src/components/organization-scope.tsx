import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from './ui/query-state';
import { useCurrentUser } from '../lib/current-user';
import { useOrganizations } from '../lib/use-organizations';

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600 sm:w-80';

/**
 * The organisation a page works on: organisation staff have their own; platform staff (no organisation of
 * their own) first pick one, since the page's calls need its clientId. Renders `children` once it is known.
 */
export function OrganizationScope({
  children,
  testId,
}: {
  children: (clientId: string) => ReactNode;
  testId: string;
}) {
  const user = useCurrentUser();
  if (user === null) return null;
  if (user.mediromOrganizationId !== null) return <>{children(user.mediromOrganizationId)}</>;
  return <OrganizationPicker testId={testId}>{children}</OrganizationPicker>;
}

function OrganizationPicker({
  children,
  testId,
}: {
  children: (clientId: string) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const [clientId, setClientId] = useState('');
  const rows = organizations.data ?? [];
  return (
    <QueryState
      isPending={organizations.isPending}
      isError={organizations.isError}
      isEmpty={rows.length === 0}
      labels={{
        loading: t('common.loading'),
        error: t('common.loadFailed'),
        empty: t('organizations.empty'),
        retry: t('common.retry'),
      }}
      onRetry={() => void organizations.refetch()}
    >
      <label className="mb-6 block text-sm font-medium text-slate-700">
        {t('admins.organization')}
        <select
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          className={selectClass}
          data-testid={testId}
        >
          <option value="">{t('admins.pickOrganization')}</option>
          {rows.map((org) => (
            <option key={org.id} value={org.id}>
              {org.name}
            </option>
          ))}
        </select>
      </label>
      {/* A new organisation starts from a fresh panel (its own search, page and dialogs). */}
      {clientId !== '' && <div key={clientId}>{children(clientId)}</div>}
    </QueryState>
  );
}
