import { PLATFORM } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useOrganizations } from '../../../lib/use-organizations';
import { CreateOrganizationDialog } from './create-organization-dialog';
import { RemoveDemo, useDemoRemovalOffer } from './remove-demo';

export function OrganizationsPage() {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const rows = organizations.data ?? [];
  // Platform owners create organisations and remove the demo (both hold only at platform scope).
  const mayCreate = useCan('organization:create', PLATFORM);
  const mayRemoveDemo = useCan('demo:remove', PLATFORM);
  const demo = useDemoRemovalOffer(mayRemoveDemo);
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <PageHeading
        actions={
          (mayCreate || demo.present) && (
            <div className="flex flex-wrap gap-2">
              {demo.present && <RemoveDemo signedInAsDemo={demo.signedInAsDemo} />}
              {mayCreate && (
                <Button
                  variant="primary"
                  onClick={() => setCreating(true)}
                  data-testid="create-organization"
                >
                  {t('organizations.create.open')}
                </Button>
              )}
            </div>
          )
        }
      >
        {t('pages.organizations')}
      </PageHeading>
      {creating && <CreateOrganizationDialog onClose={() => setCreating(false)} />}
      <QueryState
        isPending={organizations.isPending}
        isError={organizations.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: mayCreate ? t('organizations.emptyCreate') : t('organizations.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void organizations.refetch()}
      >
        <Table data-testid="organization-table">
          <caption className="sr-only">{t('pages.organizations')}</caption>
          <thead>
            <tr>
              <Th>{t('organizations.columns.name')}</Th>
              <Th>{t('organizations.columns.groups')}</Th>
              <Th>{t('organizations.columns.gateways')}</Th>
              <Th>{t('organizations.columns.wearers')}</Th>
              <Th>{t('organizations.columns.openAlerts')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((client) => (
              <tr key={client.id} data-testid="organization-row">
                <Td>
                  <AppLink
                    to={paths.organizations.detail.build({ id: client.id })}
                    className={`font-medium text-teal-800 hover:underline ${focusRing}`}
                  >
                    {client.name}
                  </AppLink>
                </Td>
                <Td>{client.groupCount}</Td>
                <Td>{client.gatewayCount}</Td>
                <Td>{client.wearerCount}</Td>
                <Td
                  className={client.openAlertCount > 0 ? 'font-semibold text-red-700' : undefined}
                  data-testid="organization-open-alerts"
                >
                  {client.openAlertCount}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </QueryState>
    </section>
  );
}
