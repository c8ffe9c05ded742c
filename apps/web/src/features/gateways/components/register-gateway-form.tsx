import {
  GATEWAY_KINDS,
  GATEWAY_TYPES,
  type GatewayConnection,
  registerGatewayBody,
} from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useGroups } from '../../../lib/use-groups';
import { ApiError } from '../../../lib/api-client';
import { contractErrors, formText } from '../../../lib/form-errors';
import { FieldError, FormFailure, inputClass } from '../../../components/ui/form-parts';
import { useRegisterGateway } from '../api/register-gateway';

const serialTaken = (error: Error | null) =>
  error instanceof ApiError && error.body?.code === 'GATEWAY_SERIAL_TAKEN';

/** The registration form: type, kind (what the gateway speaks), group, serial number and name. */
export function RegisterGatewayForm({
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
          kind: formText(form, 'kind'),
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
          {t('gateways.register.kind')}
          <select
            name="kind"
            defaultValue="native"
            className={inputClass}
            aria-describedby="gateway-register-kind-help"
            data-testid="gateway-register-kind"
          >
            {GATEWAY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`gateways.kinds.${kind}`)}
              </option>
            ))}
          </select>
          <span
            id="gateway-register-kind-help"
            className="mt-1 block text-xs font-normal text-slate-600"
          >
            {t('gateways.register.kindHelp')}
          </span>
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
