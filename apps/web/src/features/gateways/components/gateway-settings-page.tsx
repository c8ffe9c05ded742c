import type { GatewayConnection, GatewayListItem } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { paths } from '../../../config/paths';
import { useCan } from '../../../lib/use-can';
import { OrganizationScope } from '../../../components/organization-scope';
import { useGateways } from '../api/list-gateways';
import { ConnectionDialog } from './connection-dialog';
import { DeleteGatewayDialog, EditGatewayDialog, RotateDialog } from './gateway-dialogs';
import { GatewayTable } from './gateway-table';
import { PhoneEnrolmentDialog } from './phone-enrolment-dialog';
import { RegisterGatewayForm } from './register-gateway-form';

/** A credential to show once: from a registration or a rotation. */
interface Shown {
  connection: GatewayConnection;
  name: string;
  rotated: boolean;
}

/** /settings/gateways: register gateways (credential shown once), rotate credentials, retire gateways. */
export function GatewaySettingsPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.settingsGateways')}</PageHeading>
      <OrganizationScope testId="gateway-settings-organization">
        {(clientId) => <GatewaySettings clientId={clientId} />}
      </OrganizationScope>
    </section>
  );
}

function GatewaySettings({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const mayManage = useCan('gateway:manage', { organizationId: clientId });
  const gateways = useGateways(clientId);
  const [shown, setShown] = useState<Shown | null>(null);
  const [rotating, setRotating] = useState<GatewayListItem | null>(null);
  const [deleting, setDeleting] = useState<GatewayListItem | null>(null);
  const [editing, setEditing] = useState<GatewayListItem | null>(null);
  const [enrolling, setEnrolling] = useState<GatewayListItem | null>(null);
  const rows = gateways.data ?? [];
  return (
    <div className="space-y-6">
      {mayManage ? (
        <RegisterGatewayForm
          clientId={clientId}
          onRegistered={(connection, name) => setShown({ connection, name, rotated: false })}
        />
      ) : (
        <p className="text-sm text-slate-600" data-testid="gateways-read-only">
          {t('gateways.readOnly')}
        </p>
      )}
      <QueryState
        isPending={gateways.isPending}
        isError={gateways.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('gateways.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void gateways.refetch()}
      >
        <GatewayTable
          gateways={rows}
          caption={t('gateways.listLabel')}
          linkTo={(g) => paths.gateways.detail.build({ organizationId: clientId, gatewayId: g.id })}
        />
        {mayManage && (
          <ul
            className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
            aria-label={t('gateways.actionsLabel')}
            data-testid="gateway-settings-list"
          >
            {rows.map((gateway) => (
              <li
                key={gateway.id}
                className="flex flex-wrap items-center justify-between gap-3 p-4"
                data-testid="gateway-settings-row"
              >
                <p className="min-w-0 font-medium break-words text-slate-900">{gateway.name}</p>
                <div className="flex flex-wrap gap-2">
                  {gateway.type === 'SMARTPHONE' && (
                    <Button
                      variant="outline"
                      onClick={() => setEnrolling(gateway)}
                      aria-label={t('phoneEnrolment.open', { name: gateway.name })}
                      data-testid="phone-enrolment-open"
                    >
                      {t('phoneEnrolment.button')}
                    </Button>
                  )}
                  <Button
                    variant="outline"
                    onClick={() => setEditing(gateway)}
                    aria-label={t('gateways.edit.open', { name: gateway.name })}
                    data-testid="gateway-edit-open"
                  >
                    {t('gateways.edit.button')}
                  </Button>
                  <Button
                    variant="outline"
                    onClick={() => setRotating(gateway)}
                    aria-label={t('gateways.rotate.open', { name: gateway.name })}
                    data-testid="gateway-rotate-open"
                  >
                    {t('gateways.rotate.button')}
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={() => setDeleting(gateway)}
                    aria-label={t('gateways.remove.open', { name: gateway.name })}
                    data-testid="gateway-delete-open"
                  >
                    {t('gateways.remove.button')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {rotating && (
        <RotateDialog
          gateway={rotating}
          onClose={() => setRotating(null)}
          onRotated={(connection) => {
            setShown({ connection, name: rotating.name, rotated: true });
            setRotating(null);
          }}
        />
      )}
      {enrolling && <PhoneEnrolmentDialog gateway={enrolling} onClose={() => setEnrolling(null)} />}
      {deleting && <DeleteGatewayDialog gateway={deleting} onClose={() => setDeleting(null)} />}
      {editing && (
        <EditGatewayDialog clientId={clientId} gateway={editing} onClose={() => setEditing(null)} />
      )}
      {shown && (
        <ConnectionDialog
          connection={shown.connection}
          gatewayName={shown.name}
          rotated={shown.rotated}
          onClose={() => setShown(null)}
        />
      )}
    </div>
  );
}
