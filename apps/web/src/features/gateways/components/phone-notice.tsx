import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/date-time';

/**
 * A phone gateway's person and, when it reported one, the SOS or fall it could not deliver
 * ("phone gateway X could not deliver an SOS: reason", issue 34). Nothing for other gateways.
 */
export function PhoneNotice({ gateway }: { gateway: GatewayListItem }) {
  const { t } = useTranslation();
  const carrier = gateway.phoneCarrier;
  if (gateway.type !== 'SMARTPHONE' || !carrier) return null;
  const failure = gateway.phoneFailure;
  const name = carrier.wearer?.name;
  return (
    <>
      <p className="text-xs text-slate-700" data-testid="phone-carrier">
        {carrier.shared
          ? name
            ? t('phoneEnrolment.carrierShared', { name })
            : t('phoneEnrolment.carrierSharedNobody')
          : name
            ? t('phoneEnrolment.carrierNow', { name })
            : t('phoneEnrolment.carrierSharedNobody')}
      </p>
      {failure && (
        <p
          role="alert"
          className="mt-1 rounded-md bg-red-50 px-2 py-1 text-xs font-medium text-red-800"
          data-testid="phone-failure"
        >
          {t('phoneEnrolment.failure', {
            type: failure.type === 'SOS' ? 'SOS' : t('phoneEnrolment.fall'),
            reason: failure.reason,
          })}{' '}
          <DateTime at={failure.at} />
        </p>
      )}
    </>
  );
}
