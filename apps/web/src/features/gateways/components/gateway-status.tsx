import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/date-time';

/** Online, offline since when, or never connected: in words, with a coloured dot beside them (never colour alone). */
export function GatewayStatus({
  gateway,
}: {
  gateway: Pick<GatewayListItem, 'status' | 'offlineSince' | 'lastSeenAt'>;
}) {
  const { t } = useTranslation();
  if (gateway.status === 'online') {
    return (
      <span
        className="inline-flex items-center gap-1.5 font-medium text-emerald-800"
        data-testid="gateway-status"
        data-status="online"
      >
        <span aria-hidden="true" className="size-2 rounded-full bg-emerald-600" />
        {t('gateways.status.online')}
      </span>
    );
  }
  return (
    <span
      className="inline-flex items-center gap-1.5 font-medium text-red-800"
      data-testid="gateway-status"
      data-status="offline"
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-red-600" />
      {gateway.lastSeenAt === null || gateway.offlineSince === null ? (
        t('gateways.status.never')
      ) : (
        <>
          {t('gateways.status.offlineSince')} <DateTime at={gateway.offlineSince} />
        </>
      )}
    </span>
  );
}
