import type { DeleteGatewayResponse } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGatewayChange } from './gateway-change';

/** DELETE /v2/gateway/{gatewayId}: retired; its bracelets stay with their wearers, linked to no gateway. */
export const useDeleteGateway = () =>
  useGatewayChange((gatewayId: string) =>
    api.delete<DeleteGatewayResponse>(`/v2/gateway/${encodeURIComponent(gatewayId)}`),
  );
