import { type GatewayType, linkGatewayBody } from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useCan } from '../../../lib/use-can';
import { BraceletChangeError } from '../api/bracelet-change-error';
import { useLinkGateway } from '../api/link-gateway';
import { useRegisterBracelet } from '../api/register-bracelet';
import { useOrganizationGateways } from '../api/organization-gateways';
import { addPendingPairing } from '../pending-pairings';
import { FormField, inputClass } from './form-field';
import { refusalText } from './pairing-messages';
import { registerRefusal } from './register-bracelet-dialog';

/** The pairing modal's data, exactly the specification's (section 3). */
export interface PairingModalData {
  clientId: string;
  uid: string;
  deviceName: string;
  gatewayId: string;
  serialNumber: string;
  gatewayType: GatewayType | null;
  groupName: string | null;
  /** The wearer's name. */
  name: string;
  colorCode: string;
  /** The last attempt was refused: the modal opens showing why. */
  isError: boolean;
}

type Field = 'serialNumber' | 'gatewayId' | 'deviceName';

/**
 * Pairs a bracelet (by serial number) with a wearer through a gateway. Starting it links them on the server and
 * stores a pending entry {uid, name, attemptTimestamp}; the shell's poller announces the pairing when the gateway
 * reports the bracelet.
 */
export function PairingModal({
  data,
  onClose,
}: {
  data: PairingModalData | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wearer');
  return (
    <Dialog
      open={data !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('pairing.title')}
      description={t('pairing.lead')}
      data-testid="pairing-modal"
    >
      {data && (
        <PairingForm key={`${data.uid}-${data.serialNumber}`} initial={data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function PairingForm({ initial, onClose }: { initial: PairingModalData; onClose: () => void }) {
  const { t } = useTranslation('wearer');
  const formId = useId();
  const [data, setData] = useState<PairingModalData>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(
    initial.isError ? t('pairing.failed') : null,
  );
  const gateways = useOrganizationGateways(data.clientId);
  const link = useLinkGateway();
  const register = useRegisterBracelet();
  // An unknown serial is no dead end for those who may register bracelets: register it, then pair.
  const mayRegister = useCan('bracelet:register', { organizationId: data.clientId });
  const [unknownSerial, setUnknownSerial] = useState<string | null>(null);
  const focusAfterRender = useFocusAfterRender();
  const set = (patch: Partial<PairingModalData>) => setData((d) => ({ ...d, ...patch }));

  const chooseGateway = (gatewayId: string) => {
    const gateway = gateways.data?.find((g) => g.id === gatewayId);
    set({ gatewayId, gatewayType: gateway?.type ?? null });
  };

  // An organisation with one gateway has nothing to choose: it is chosen (still shown, and changeable once a
  // second one exists).
  const onlyGateway = gateways.data?.length === 1 ? gateways.data[0] : undefined;
  const gatewayId = data.gatewayId !== '' ? data.gatewayId : (onlyGateway?.id ?? '');
  const gatewayType = data.gatewayId !== '' ? data.gatewayType : (onlyGateway?.type ?? null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (link.isPending) return;
    const body = {
      clientId: data.clientId,
      uid: data.uid,
      gatewayId: gatewayId,
      serialNumber: data.serialNumber.trim(),
      ...(data.deviceName.trim() === '' ? {} : { deviceName: data.deviceName.trim() }),
    };
    const checked = linkGatewayBody.safeParse(body);
    if (!checked.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if (field === 'serialNumber' || field === 'gatewayId' || field === 'deviceName')
          next[field] ??= t(`pairing.invalid.${field}`);
      }
      setErrors(next);
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setErrors({});
    pair(checked.data);
  };

  const pair = (body: Parameters<typeof link.mutate>[0]) => {
    setUnknownSerial(null);
    link.mutate(body, {
      onSuccess: (result) => {
        if (result.isPaired) {
          toast.success(t('pairing.success', { name: data.name }));
        } else {
          addPendingPairing({ uid: data.uid, name: data.name, attemptTimestamp: Date.now() });
          toast.info(t('pairing.started', { name: data.name }));
        }
        onClose();
      },
      onError: (error) => {
        set({ isError: true });
        setRefusal(refusalText(t, error));
        if (error instanceof BraceletChangeError && error.code === 'BRACELET_NOT_FOUND')
          setUnknownSerial(body.serialNumber);
      },
    });
  };

  const registerAndPair = () => {
    if (unknownSerial === null || register.isPending) return;
    const serialNumber = unknownSerial;
    register.mutate(
      { mediromOrganizationId: data.clientId, serialNumber },
      {
        onSuccess: () => {
          toast.success(t('register.done', { serial: serialNumber }));
          pair({
            clientId: data.clientId,
            uid: data.uid,
            gatewayId,
            serialNumber,
            ...(data.deviceName.trim() === '' ? {} : { deviceName: data.deviceName.trim() }),
          });
        },
        onError: (error) => setRefusal(registerRefusal(t, error)),
      },
    );
  };

  return (
    <form
      id={formId}
      noValidate
      onSubmit={submit}
      className="grid gap-4"
      data-error={data.isError ? 'true' : 'false'}
    >
      <div
        className="flex items-center gap-3 rounded-md border border-slate-200 p-3"
        data-testid="pairing-wearer"
      >
        <span
          aria-hidden="true"
          className="size-4 shrink-0 rounded-full"
          style={{ backgroundColor: data.colorCode }}
          data-color={data.colorCode}
        />
        <div className="min-w-0">
          <p className="font-medium break-words text-slate-900">{data.name}</p>
          <p className="text-sm text-slate-600">{data.groupName ?? t('common.noGroup')}</p>
        </div>
      </div>
      {refusal !== null && (
        <p
          role="alert"
          data-testid="pairing-error"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          {refusal}
        </p>
      )}
      {unknownSerial !== null && mayRegister && (
        <div
          className="grid gap-2 rounded-md border border-slate-200 p-3"
          data-testid="pairing-register-offer"
        >
          <p className="text-sm text-slate-700">{t('register.offer', { serial: unknownSerial })}</p>
          <Button
            type="button"
            variant="primary"
            onClick={registerAndPair}
            aria-disabled={register.isPending}
            data-testid="pairing-register"
          >
            {register.isPending ? t('register.saving') : t('register.andPair')}
          </Button>
        </div>
      )}
      {unknownSerial !== null && !mayRegister && (
        <p className="text-sm text-slate-700" data-testid="pairing-register-ask">
          {t('register.askOwner')}
        </p>
      )}
      <FormField
        id={`${formId}-serial`}
        label={t('pairing.serialNumber')}
        help={t('pairing.serialHelp')}
        error={errors.serialNumber}
      >
        {(props) => (
          <input
            {...props}
            data-testid="pairing-serial"
            autoComplete="off"
            spellCheck={false}
            value={data.serialNumber}
            onChange={(e) => set({ serialNumber: e.target.value })}
            className={inputClass(errors.serialNumber !== undefined, 'w-full')}
          />
        )}
      </FormField>
      <FormField id={`${formId}-gateway`} label={t('pairing.gateway')} error={errors.gatewayId}>
        {(props) => (
          <select
            {...props}
            data-testid="pairing-gateway"
            value={gatewayId}
            onChange={(e) => chooseGateway(e.target.value)}
            className={inputClass(errors.gatewayId !== undefined, 'w-full')}
          >
            <option value="">
              {gateways.isPending ? t('common.loading') : t('pairing.chooseGateway')}
            </option>
            {(gateways.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {t('pairing.gatewayOption', {
                  name: g.name,
                  type: t(`gatewayType.${g.type}`),
                  status: t(`gatewayStatus.${g.status}`),
                })}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {gatewayType !== null && (
        <p className="text-sm text-slate-600" data-testid="pairing-gateway-type">
          {t(`pairing.typeHint.${gatewayType}`)}
        </p>
      )}
      <FormField
        id={`${formId}-name`}
        label={t('pairing.deviceName')}
        help={t('pairing.deviceNameHelp')}
        error={errors.deviceName}
      >
        {(props) => (
          <input
            {...props}
            data-testid="pairing-device-name"
            value={data.deviceName}
            onChange={(e) => set({ deviceName: e.target.value })}
            className={inputClass(errors.deviceName !== undefined, 'w-full')}
          />
        )}
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="modal"
          data-testid="pairing-start"
          aria-disabled={link.isPending}
        >
          {link.isPending ? t('pairing.starting') : t('pairing.start')}
        </Button>
      </div>
    </form>
  );
}
