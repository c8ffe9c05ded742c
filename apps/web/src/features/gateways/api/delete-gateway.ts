import { deleteGateway } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGatewayChange } from './gateway-change';

/** Retired; its bracelets stay with their wearers, linked to no gateway. */
export const useDeleteGateway = () =>
  useGatewayChange((gatewayId: string) => call(deleteGateway, { params: { gatewayId } }));
