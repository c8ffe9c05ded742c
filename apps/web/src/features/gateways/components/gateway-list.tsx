import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { useGateways } from '../api/list-gateways';
import { GatewayTable } from './gateway-table';

/** An organisation's gateways (or one group's), loaded and shown as a table. */
export function GatewayList({
  clientId,
  groupId,
  linkTo,
}: {
  clientId: string;
  groupId?: string;
  linkTo: (gateway: GatewayListItem) => string;
}) {
  const { t } = useTranslation();
  const gateways = useGateways(clientId, groupId);
  const rows = gateways.data ?? [];
  return (
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
      <GatewayTable gateways={rows} linkTo={linkTo} caption={t('gateways.listLabel')} />
    </QueryState>
  );
}
