import type { GatewayDetail } from '@wearable/domain';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { useCan } from '../../../lib/use-can';
import { FormFailure } from '../../../components/ui/form-parts';
import { useRegisterUnknownDevice, useUnknownDevices } from '../api/unknown-devices';

/**
 * "Heard, not registered": devices the gateway heard that are no bracelet of the organisation,
 * latest first with their last signal and time; one click registers one as a bracelet. Shown for
 * gateways that speak a vendor's format (a native gateway sends only its bracelets).
 */
export function UnknownDevicesPanel({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const unknown = useUnknownDevices(gateway.id);
  const register = useRegisterUnknownDevice();
  const mayRegister = useCan('bracelet:register', { organizationId: gateway.clientId });
  const devices = unknown.data?.devices ?? [];
  return (
    <section
      aria-labelledby="gateway-unknown-title"
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="gateway-unknown-devices"
    >
      <h2 id="gateway-unknown-title" className="text-base font-semibold text-slate-900">
        {t('gateways.unknown.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {t('gateways.unknown.lead', { capacity: unknown.data?.capacity ?? 0 })}
      </p>
      <FormFailure error={register.error} />
      {unknown.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {t('common.loadFailed')}
        </p>
      ) : devices.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="gateway-unknown-empty">
          {unknown.isPending ? t('common.loading') : t('gateways.unknown.empty')}
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200" aria-labelledby="gateway-unknown-title">
          {devices.map((d) => (
            <li
              key={d.deviceId}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="gateway-unknown-row"
            >
              <div className="min-w-0 text-sm">
                <p className="font-mono break-all text-slate-900">{d.deviceId}</p>
                <p className="text-slate-700">
                  {t(`gateways.unknown.frames.${d.frame}`, { defaultValue: d.frame })} ・{' '}
                  {d.rssi === null
                    ? t('gateways.unknown.noSignal')
                    : t('gateways.unknown.signal', { rssi: d.rssi })}{' '}
                  ・ <DateTime at={d.lastHeardAt} />
                </p>
              </div>
              {mayRegister && (
                <Button
                  variant="outline"
                  disabled={register.isPending}
                  aria-label={t('gateways.unknown.registerOne', { id: d.deviceId })}
                  data-testid="gateway-unknown-register"
                  onClick={() =>
                    register.mutate(
                      { gatewayId: gateway.id, deviceId: d.deviceId },
                      {
                        onSuccess: () =>
                          toast.success(t('gateways.unknown.registered', { id: d.deviceId })),
                      },
                    )
                  }
                >
                  {t('gateways.unknown.register')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
