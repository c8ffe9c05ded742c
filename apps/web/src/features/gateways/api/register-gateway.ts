import type { RegisterGatewayBody, RegisteredGateway } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGatewayChange } from './gateway-change';

/** POST /v2/gateway: the answer holds the credential, shown only this once. */
export const useRegisterGateway = () =>
  useGatewayChange((body: RegisterGatewayBody) => api.post<RegisteredGateway>('/v2/gateway', body));
