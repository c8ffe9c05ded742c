import { GATEWAY_REFUSING_MS, type GatewayListItem } from '@wearable/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The time now, taken again every half minute (the badge goes when refusals stop). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** While a gateway's items keep being refused (the last within 15 minutes): a warning, in words. */
export function RefusingBadge({ gateway }: { gateway: Pick<GatewayListItem, 'lastRefusalAt'> }) {
  const { t } = useTranslation();
  const now = useNow();
  const at = gateway.lastRefusalAt;
  if (!at || now - new Date(at).getTime() > GATEWAY_REFUSING_MS) return null;
  return (
    <span
      className="mt-1 flex w-fit items-center gap-1 rounded-full border border-amber-400 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900"
      data-testid="gateway-refusing-badge"
    >
      <span aria-hidden="true">⚠</span>
      {t('gateways.refusals.badge')}
    </span>
  );
}
