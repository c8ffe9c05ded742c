import { deviceSettingPatch, type DeviceSetting, HEART_RATE_DUTY_CYCLES } from '@wearable/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/use-can';
import { firstInvalidIn, useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useDeviceSetting } from '../api/device-setting';
import { useUpdateDeviceSetting } from '../api/update-device-setting';
import { readPendingPairings } from '../pending-pairings';
import { wearerColor } from '../wearer-color';
import { FormField, inputClass } from './form-field';
import { PairingModal, type PairingModalData } from './pairing-modal';
import { refusalText } from './pairing-messages';
import { UnlinkModal, type UnlinkModalData } from './unlink-modal';

export interface BraceletWearer {
  uid: string;
  clientId: string;
  name: string;
  groupName: string | null;
}

/** /devices/{clientId}/{uid}/device_setting: the wearer's bracelet, its setting, pairing, unlink and replace. */
export function DeviceSettingPanel({ wearer }: { wearer: BraceletWearer }) {
  const { t } = useTranslation(['wearer', 'common']);
  const setting = useDeviceSetting(wearer.uid);
  const canPair = useCan('bracelet:pair', {
    organizationId: wearer.clientId,
    wearerId: wearer.uid,
  });
  const [pairing, setPairing] = useState<PairingModalData | null>(null);
  const [unlinking, setUnlinking] = useState<UnlinkModalData | null>(null);

  const openPairing = (gatewayId: string | null) =>
    setPairing({
      clientId: wearer.clientId,
      uid: wearer.uid,
      deviceName: '',
      gatewayId: gatewayId ?? '',
      serialNumber: '',
      gatewayType: null,
      groupName: wearer.groupName,
      name: wearer.name,
      colorCode: wearerColor(wearer.uid),
      isError: false,
    });

  const device = setting.data ?? null;
  return (
    <>
      <QueryState
        isPending={setting.isPending}
        isError={setting.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: '',
          retry: t('common:common.retry'),
        }}
        onRetry={() => void setting.refetch()}
      >
        {device === null ? (
          <section
            aria-labelledby="no-device-title"
            className="rounded-lg border border-slate-200 bg-white p-4"
            data-testid="no-device"
          >
            <h2 id="no-device-title" className="text-base font-semibold text-slate-900">
              {t('bracelet.noneTitle')}
            </h2>
            <p className="mt-1 text-sm text-slate-700">{t('bracelet.none')}</p>
            <PendingNote uid={wearer.uid} />
            {canPair && (
              <Button
                variant="primary"
                className="mt-3"
                data-testid="open-pairing"
                onClick={() => openPairing(null)}
              >
                {t('pairing.open')}
              </Button>
            )}
          </section>
        ) : (
          <DeviceDetails
            key={`${device.wearableId}-${device.deviceName}-${device.heartRateDutyCycle}`}
            device={device}
            canChange={canPair}
            onPair={() => openPairing(device.gatewayId)}
            onUnlink={() =>
              setUnlinking({
                clientId: wearer.clientId,
                wearableId: device.wearableId,
                gatewayId: device.gatewayId,
                uid: wearer.uid,
                name: wearer.name,
                groupName: wearer.groupName,
              })
            }
          />
        )}
      </QueryState>
      <PairingModal data={pairing} onClose={() => setPairing(null)} />
      <UnlinkModal
        data={unlinking}
        deviceLabel={device ? `${device.deviceName} (${device.serialNumber})` : ''}
        onClose={() => setUnlinking(null)}
        onReplace={(data) => {
          setUnlinking(null);
          openPairing(data.gatewayId);
        }}
      />
    </>
  );
}

/** A pairing this browser started and is still waiting for (the shell's poller asks every 90 s). */
function PendingNote({ uid }: { uid: string }) {
  const { t, i18n } = useTranslation('wearer');
  const pending = readPendingPairings().find((e) => e.uid === uid);
  if (!pending) return null;
  const at = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    hour: '2-digit',
    minute: '2-digit',
  }).format(pending.attemptTimestamp);
  return (
    <p data-testid="pairing-pending" className="mt-2 text-sm text-amber-900">
      {t('pairing.pendingSince', { time: at })}
    </p>
  );
}

function DeviceDetails({
  device,
  canChange,
  onPair,
  onUnlink,
}: {
  device: DeviceSetting;
  canChange: boolean;
  onPair: () => void;
  onUnlink: () => void;
}) {
  const { t } = useTranslation(['wearer', 'common']);
  const none = t('common:common.none');
  const facts: { key: string; label: string; value: string }[] = [
    { key: 'serial', label: t('bracelet.serialNumber'), value: device.serialNumber },
    {
      key: 'battery',
      label: t('bracelet.battery'),
      value: device.battery === null ? none : t('bracelet.batteryValue', { value: device.battery }),
    },
    { key: 'firmware', label: t('bracelet.firmware'), value: device.firmware ?? none },
    {
      key: 'gateway',
      label: t('bracelet.gateway'),
      value:
        device.gatewayName === null
          ? t('bracelet.noGateway')
          : `${device.gatewayName} (${t(`gatewayType.${device.gatewayType ?? 'STATIONARY'}`)})`,
    },
    {
      key: 'paired',
      label: t('bracelet.pairing'),
      value: device.isPaired ? t('bracelet.paired') : t('bracelet.waiting'),
    },
  ];
  return (
    <div className="grid gap-4">
      <section
        aria-labelledby="device-title"
        className="rounded-lg border border-slate-200 bg-white p-4"
        data-testid="device-facts"
      >
        <h2 id="device-title" className="mb-3 text-base font-semibold break-words text-slate-900">
          {device.deviceName}
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {facts.map((fact) => (
            <div key={fact.key} data-testid={`device-${fact.key}`}>
              <dt className="text-xs text-slate-600">{fact.label}</dt>
              <dd className="mt-0.5 font-medium break-words text-slate-900">{fact.value}</dd>
            </div>
          ))}
        </dl>
        {!device.isPaired && <PendingNote uid={device.uid} />}
        {canChange && (
          <div className="mt-4 flex flex-wrap gap-2">
            {!device.isPaired && (
              <Button variant="primary" data-testid="open-pairing" onClick={onPair}>
                {t('pairing.retry')}
              </Button>
            )}
            <Button variant="outline" data-testid="open-unlink" onClick={onUnlink}>
              {t('unlink.open')}
            </Button>
          </div>
        )}
      </section>
      <SettingForm device={device} canChange={canChange} />
    </div>
  );
}

function SettingForm({ device, canChange }: { device: DeviceSetting; canChange: boolean }) {
  const { t } = useTranslation(['wearer', 'common']);
  const id = useId();
  const [deviceName, setDeviceName] = useState(device.deviceName);
  const [dutyCycle, setDutyCycle] = useState(device.heartRateDutyCycle);
  const [nameError, setNameError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const update = useUpdateDeviceSetting(device.uid);
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const patch = {
      ...(deviceName.trim() !== device.deviceName ? { deviceName: deviceName.trim() } : {}),
      ...(dutyCycle !== device.heartRateDutyCycle ? { heartRateDutyCycle: dutyCycle } : {}),
    };
    if (Object.keys(patch).length === 0) {
      toast.info(t('setting.unchanged'));
      return;
    }
    const checked = deviceSettingPatch.safeParse(patch);
    if (!checked.success) {
      setNameError(t('setting.invalidName'));
      focusAfterRender(firstInvalidIn(event.currentTarget));
      return;
    }
    setNameError(undefined);
    setRefusal(null);
    update.mutate(checked.data, {
      onSuccess: () => toast.success(t('setting.saved')),
      onError: (error) => setRefusal(refusalText(t, error)),
    });
  };

  const status =
    device.configStatus === 'pending'
      ? t('setting.pending', { applied: device.appliedDutyCycle ?? '?' })
      : t('setting.applied');
  return (
    <form
      noValidate
      onSubmit={submit}
      data-testid="device-setting-form"
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 className="text-base font-semibold text-slate-900">{t('setting.title')}</h2>
      <FormField id={`${id}-name`} label={t('setting.deviceName')} error={nameError}>
        {(props) => (
          <input
            {...props}
            data-testid="setting-device-name"
            value={deviceName}
            readOnly={!canChange}
            onChange={(e) => setDeviceName(e.target.value)}
            className={inputClass(nameError !== undefined, 'w-full max-w-md')}
          />
        )}
      </FormField>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">
          {t('setting.dutyCycle')}
        </legend>
        <p id={`${id}-duty-help`} className="mb-2 text-xs text-slate-600">
          {t('setting.dutyCycleHelp')}
        </p>
        <div
          className="flex flex-wrap gap-2"
          role="radiogroup"
          aria-describedby={`${id}-duty-help`}
        >
          {HEART_RATE_DUTY_CYCLES.map((minutes) => (
            <label
              key={minutes}
              className={`flex min-h-11 items-center gap-2 rounded-md border px-3 text-sm ${dutyCycle === minutes ? 'border-teal-700 bg-teal-50' : 'border-slate-300'}`}
            >
              <input
                type="radio"
                name={`${id}-duty`}
                value={minutes}
                data-testid={`duty-${minutes}`}
                checked={dutyCycle === minutes}
                disabled={!canChange}
                onChange={() => setDutyCycle(minutes)}
                className={`size-4 accent-teal-700 ${focusRing}`}
              />
              {t('setting.minutes', { count: minutes })}
            </label>
          ))}
        </div>
      </fieldset>
      <p
        data-testid="config-status"
        className={`text-sm ${device.configStatus === 'pending' ? 'text-amber-900' : 'text-slate-700'}`}
      >
        {status}
      </p>
      {refusal !== null && (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          {refusal}
        </p>
      )}
      {canChange && (
        <div>
          <Button
            type="submit"
            variant="primary"
            data-testid="save-device-setting"
            aria-disabled={update.isPending}
          >
            {update.isPending ? t('setting.saving') : t('setting.save')}
          </Button>
        </div>
      )}
    </form>
  );
}
