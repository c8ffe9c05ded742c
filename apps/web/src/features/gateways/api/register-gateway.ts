import { type RegisterGatewayBody, registerGateway } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayChange } from './gateway-change';

/** POST /v2/gateway (from its contract): the answer holds the credential (and secret path), shown only this once. */
export const useRegisterGateway = () =>
  useGatewayChange((body: RegisterGatewayBody) => call(registerGateway, { body }));
