import {
  GATEWAY_TYPES,
  type GatewayConnection,
  type GatewayListItem,
  registerGatewayBody,
} from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { paths } from '../../../config/paths';
import { useCan } from '../../../lib/use-can';
import { useGroups } from '../../groups/api/list-groups';
import { MemberChangeError } from '../../members/api/member-changes';
import { contractErrors, formText } from '../../members/components/form-errors';
import { FieldError, FormFailure, inputClass } from '../../members/components/member-form-parts';
import { OrganizationScope } from '../../organizations/components/organization-picker';
import { useGateways } from '../api/list-gateways';
import { useRegisterGateway } from '../api/register-gateway';
import { ConnectionDialog } from './connection-dialog';
import { DeleteGatewayDialog, EditGatewayDialog, RotateDialog } from './gateway-dialogs';
import { GatewayTable } from './gateway-table';
import { PhoneEnrolmentDialog } from './phone-enrolment-dialog';

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

const serialTaken = (error: Error | null) =>
  error instanceof MemberChangeError && error.body?.code === 'GATEWAY_SERIAL_TAKEN';

function RegisterGatewayForm({
  clientId,
  onRegistered,
}: {
  clientId: string;
  onRegistered: (c: GatewayConnection, name: string) => void;
}) {
  const { t } = useTranslation();
  const register = useRegisterGateway();
  const groups = useGroups(clientId);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  return (
    <form
      noValidate
      className="rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby="gateway-register-title"
      data-testid="gateway-register-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const groupId = formText(form, 'groupId');
        const body = {
          clientId,
          type: formText(form, 'type'),
          serialNumber: formText(form, 'serialNumber').trim(),
          name: formText(form, 'name').trim(),
          ...(groupId === '' ? {} : { groupId }),
        };
        // Checked with the endpoint's own contract first, so the form names the field.
        const parsed = registerGatewayBody.safeParse(body);
        const problems = contractErrors(parsed);
        setInvalid(problems);
        if (!parsed.success) return;
        register.mutate(parsed.data, {
          onSuccess: (result) => {
            form.reset();
            onRegistered(result.connection, result.gateway.name);
          },
        });
      }}
    >
      <h2 id="gateway-register-title" className="text-base font-semibold text-slate-900">
        {t('gateways.register.title')}
      </h2>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-700">
          {t('gateways.register.type')}
          <select
            name="type"
            defaultValue="STATIONARY"
            className={inputClass}
            data-testid="gateway-register-type"
          >
            {GATEWAY_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`gateways.types.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('gateways.register.group')}
          <select
            name="groupId"
            defaultValue=""
            className={inputClass}
            data-testid="gateway-register-group"
          >
            <option value="">{t('gateways.noGroup')}</option>
            {(groups.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
        {(['serialNumber', 'name'] as const).map((field) => (
          <label key={field} className="block text-sm font-medium text-slate-700">
            {t(`gateways.register.${field}`)}
            <input
              name={field}
              autoComplete="off"
              className={inputClass}
              aria-invalid={invalid.has(field)}
              aria-describedby={invalid.has(field) ? `gateway-register-${field}-error` : undefined}
              data-testid={`gateway-register-${field}`}
            />
            <FieldError show={invalid.has(field)} id={`gateway-register-${field}-error`}>
              {t(`gateways.register.errors.${field}`)}
            </FieldError>
          </label>
        ))}
      </div>
      <div className="mt-3">
        {serialTaken(register.error) ? (
          <p
            role="alert"
            data-testid="form-failure"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {t('gateways.register.errors.GATEWAY_SERIAL_TAKEN')}
          </p>
        ) : (
          <FormFailure error={register.error} />
        )}
      </div>
      <Button
        type="submit"
        variant="primary"
        className="mt-3"
        disabled={register.isPending}
        data-testid="gateway-register-submit"
      >
        {t('gateways.register.submit')}
      </Button>
    </form>
  );
}
