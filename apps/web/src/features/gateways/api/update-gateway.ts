import { type UpdateGatewayBody, updateGateway } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayChange } from './gateway-change';

/** A new name, or another group of the organisation (null: none). */
export const useUpdateGateway = () =>
  useGatewayChange(({ gatewayId, body }: { gatewayId: string; body: UpdateGatewayBody }) =>
    call(updateGateway, { params: { gatewayId }, body }),
  );
