import type { GatewayListItem, UpdateGatewayBody } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGatewayChange } from './gateway-change';

/** PATCH /v2/gateway/{gatewayId}: a new name, or another group of the organisation (null: none). */
export const useUpdateGateway = () =>
  useGatewayChange(({ gatewayId, body }: { gatewayId: string; body: UpdateGatewayBody }) =>
    api.patch<GatewayListItem>(`/v2/gateway/${encodeURIComponent(gatewayId)}`, body),
  );
