import { type RegisterGatewayBody, registerGateway } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayMutation } from './gateway-mutation';

/** POST /v2/gateway (from its contract): the answer holds the credential (and secret path), shown only this once. */
export const useRegisterGateway = () =>
  useGatewayMutation((body: RegisterGatewayBody) => call(registerGateway, { body }));
