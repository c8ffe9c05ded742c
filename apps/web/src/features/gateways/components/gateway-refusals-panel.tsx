import { type GatewayDetail, type GatewayRefusal, heardDeviceId } from '@wearable/domain';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { FormFailure } from '../../../components/ui/form-parts';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useGatewayRefusals } from '../api/gateway-refusals';
import { useRegisterUnknownDevice } from '../api/unknown-devices';

const linkClass = `inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-teal-800 hover:bg-slate-50 ${focusRing}`;

/**
 * What the gateway sent lately that the server refused, grouped by reason and serial
 * ("12 × unknown bracelet BR-DAIWA-001 · 04:02"), with "did you mean" for a near-miss serial and
 * what staff can do: register a heard device, pair a bracelet nobody wears. Every kind of gateway.
 */
export function GatewayRefusalsPanel({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const refusals = useGatewayRefusals(gateway.id);
  const register = useRegisterUnknownDevice();
  const rows = refusals.data?.refusals ?? [];
  return (
    <section
      aria-labelledby="gateway-refusals-title"
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="gateway-refusals"
    >
      <h2 id="gateway-refusals-title" className="text-base font-semibold text-slate-900">
        {t('gateways.refusals.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('gateways.refusals.lead')}</p>
      <FormFailure error={register.error} />
      {refusals.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {t('common.loadFailed')}
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="gateway-refusals-empty">
          {refusals.isPending ? t('common.loading') : t('gateways.refusals.empty')}
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200" aria-labelledby="gateway-refusals-title">
          {rows.map((r) => (
            <RefusalRow
              key={`${r.reason}|${r.serialNumber ?? ''}`}
              gateway={gateway}
              refusal={r}
              onRegister={(deviceId) =>
                register.mutate(
                  { gatewayId: gateway.id, deviceId },
                  {
                    onSuccess: () =>
                      toast.success(t('gateways.unknown.registered', { id: deviceId })),
                  },
                )
              }
              registering={register.isPending}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function RefusalRow({
  gateway,
  refusal: r,
  onRegister,
  registering,
}: {
  gateway: GatewayDetail;
  refusal: GatewayRefusal;
  onRegister: (deviceId: string) => void;
  registering: boolean;
}) {
  const { t } = useTranslation();
  const mayRegister = useCan('bracelet:register', { organizationId: gateway.clientId });
  const mayPair = useCan('bracelet:pair', { organizationId: gateway.clientId });
  const serial = r.serialNumber;
  // A heard MAC or DevEUI is registered in one click; other serials where bracelets are registered.
  const registrable =
    r.reason === 'UNKNOWN_BRACELET' && serial !== null && heardDeviceId.safeParse(serial).success;
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 py-2"
      data-testid="gateway-refusal-row"
    >
      <div className="min-w-0 text-sm">
        <p className="text-slate-900" data-testid="gateway-refusal-line">
          <span className="font-semibold">{t('gateways.refusals.count', { count: r.count })}</span>{' '}
          {t(`gateways.refusals.reasons.${r.reason}`)}
          {serial !== null && (
            <>
              {' '}
              <span className="font-mono break-all">{serial}</span>
            </>
          )}{' '}
          ・ <DateTime at={r.lastAt} />
        </p>
        {r.suggestion !== null && (
          <p className="font-medium text-amber-900" data-testid="gateway-refusal-suggestion">
            {t('gateways.refusals.suggestion', { serial: r.suggestion })}
          </p>
        )}
        {r.reason === 'UNKNOWN_BRACELET' && r.suggestion === null && !registrable && (
          <p className="text-slate-700">{t('gateways.refusals.unknownHint')}</p>
        )}
        <p className="text-xs break-words text-slate-600">
          {t('gateways.refusals.told')} <span lang="en">{r.detail}</span>
        </p>
      </div>
      {registrable && mayRegister && (
        <Button
          variant="outline"
          disabled={registering}
          aria-label={t('gateways.unknown.registerOne', { id: serial })}
          data-testid="gateway-refusal-register"
          onClick={() => onRegister(serial)}
        >
          {t('gateways.unknown.register')}
        </Button>
      )}
      {r.reason === 'NO_WEARER' && mayPair && (
        <AppLink
          to={paths.devices.list.build()}
          className={linkClass}
          aria-label={t('gateways.refusals.pairOne', { serial })}
          data-testid="gateway-refusal-pair"
        >
          {t('gateways.refusals.pair')}
        </AppLink>
      )}
    </li>
  );
}
