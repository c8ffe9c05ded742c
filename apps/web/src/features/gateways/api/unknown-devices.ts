import { useQuery } from '@tanstack/react-query';
import { listUnknownDevices, registerUnknownDevice } from '@wearable/domain';
import { call, endpointQuery } from '../../../lib/endpoint';
import { useGatewayChange } from './gateway-change';

/** Devices the gateway heard that are no bracelet of its organisation ("heard, not registered"). */
export const useUnknownDevices = (gatewayId: string) =>
  useQuery({
    ...endpointQuery(listUnknownDevices, { params: { gatewayId } }),
    refetchInterval: 30_000,
  });

/** One click: the heard device becomes a bracelet of the organisation (serial number = its id). */
export const useRegisterUnknownDevice = () =>
  useGatewayChange((input: { gatewayId: string; deviceId: string }) =>
    call(registerUnknownDevice, { params: input }),
  );
