import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { NextStep } from '../../../components/ui/next-step';
import { QueryState } from '../../../components/ui/query-state';
import { paths } from '../../../config/paths';
import { useCan } from '../../../lib/use-can';
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
  const mayManage = useCan('gateway:manage', { organizationId: clientId });
  return (
    <QueryState
      emptyAction={
        mayManage && (
          <NextStep
            text={t('gateways.emptyNext')}
            to={paths.settings.gateways.build()}
            label={t('gateways.emptyNextLink')}
            testId="gateways-empty-next"
          />
        )
      }
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
