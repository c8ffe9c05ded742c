import { rotateGatewayCredential } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayMutation } from './gateway-mutation';

/** A new credential (and secret path, for kinds that have one), shown once; the old ones are refused at once. */
export const useRotateCredential = () =>
  useGatewayMutation((gatewayId: string) =>
    call(rotateGatewayCredential, { params: { gatewayId } }),
  );
