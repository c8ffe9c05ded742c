import { rotateGatewayCredential } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayChange } from './gateway-change';

/** A new credential (and secret path, for kinds that have one), shown once; the old ones are refused at once. */
export const useRotateCredential = () =>
  useGatewayChange((gatewayId: string) => call(rotateGatewayCredential, { params: { gatewayId } }));
