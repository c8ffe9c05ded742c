import { registerBraceletBody } from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useRegisterBracelet } from '../api/register-bracelet';
import { FormField, inputClass } from './form-field';

type Field = 'serialNumber' | 'model' | 'deviceName';

/** Why a registration was refused, in the reader's language (the server's message for the rest). */
export function registerRefusal(t: (key: string) => string, error: unknown): string {
  if (!(error instanceof ApiError)) return t('register.errors.unknown');
  if (error.code === 'BRACELET_SERIAL_TAKEN') return t('register.errors.taken');
  if (error.status === 403) return t('bracelet.errors.forbidden');
  return error.serverMessage ?? t('register.errors.unknown');
}

/**
 * Registers one bracelet for an organisation by its serial number (POST /v2/device): the
 * organisation's owners do it; afterwards it can be paired with a wearer.
 */
export function RegisterBraceletDialog(props: {
  clientId: string;
  onClose: () => void;
  initialSerial?: string;
}) {
  const { t } = useTranslation('wearer');
  const formId = useId();
  const register = useRegisterBracelet();
  const focusAfterRender = useFocusAfterRender();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [serial, setSerial] = useState(props.initialSerial ?? '');
  const [model, setModel] = useState('');
  const [deviceName, setDeviceName] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (register.isPending) return;
    const body = {
      mediromOrganizationId: props.clientId,
      serialNumber: serial.trim(),
      ...(model.trim() === '' ? {} : { model: model.trim() }),
      ...(deviceName.trim() === '' ? {} : { deviceName: deviceName.trim() }),
    };
    const checked = registerBraceletBody.safeParse(body);
    if (!checked.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if (field === 'serialNumber' || field === 'model' || field === 'deviceName')
          next[field] ??= t(`register.invalid.${field}`);
      }
      setErrors(next);
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setErrors({});
    register.mutate(checked.data, {
      onSuccess: (bracelet) => {
        toast.success(t('register.done', { serial: bracelet.serialNumber }));
        props.onClose();
      },
      onError: (error) => setRefusal(registerRefusal(t, error)),
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t('register.title')}
      description={t('register.lead')}
      data-testid="register-bracelet-dialog"
    >
      <form id={formId} noValidate onSubmit={submit} className="grid gap-4">
        {refusal !== null && (
          <p
            role="alert"
            data-testid="register-error"
            className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
          >
            {refusal}
          </p>
        )}
        <FormField
          id={`${formId}-serial`}
          label={t('register.serialNumber')}
          help={t('pairing.serialHelp')}
          error={errors.serialNumber}
        >
          {(p) => (
            <input
              {...p}
              data-testid="register-serial"
              autoComplete="off"
              spellCheck={false}
              value={serial}
              onChange={(e) => setSerial(e.target.value)}
              className={inputClass(errors.serialNumber !== undefined, 'w-full')}
            />
          )}
        </FormField>
        <FormField id={`${formId}-model`} label={t('register.model')} error={errors.model}>
          {(p) => (
            <input
              {...p}
              data-testid="register-model"
              autoComplete="off"
              value={model}
              onChange={(e) => setModel(e.target.value)}
              className={inputClass(errors.model !== undefined, 'w-full')}
            />
          )}
        </FormField>
        <FormField
          id={`${formId}-name`}
          label={t('pairing.deviceName')}
          help={t('register.deviceNameHelp')}
          error={errors.deviceName}
        >
          {(p) => (
            <input
              {...p}
              data-testid="register-device-name"
              value={deviceName}
              onChange={(e) => setDeviceName(e.target.value)}
              className={inputClass(errors.deviceName !== undefined, 'w-full')}
            />
          )}
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="modal"
            data-testid="register-submit"
            aria-disabled={register.isPending}
          >
            {register.isPending ? t('register.saving') : t('register.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
