import type { GatewayConnection } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGatewayChange } from './gateway-change';

/** POST /v2/gateway/{gatewayId}/credential: a new credential (shown once); the old one is refused at once. */
export const useRotateCredential = () =>
  useGatewayChange((gatewayId: string) =>
    api.post<GatewayConnection>(`/v2/gateway/${encodeURIComponent(gatewayId)}/credential`),
  );
