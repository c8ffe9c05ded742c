import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import {
  braceletView,
  deleteGatewayResponse,
  environmentHistoryQuery,
  environmentHistoryResponse,
  gatewayConnection,
  gatewayDetail,
  gatewayListQuery,
  gatewayListResponse,
  gatewayParams,
  registerGatewayBody,
  registerGatewayResponse,
  updateGatewayBody,
} from './fleet-devices.js';
import { id } from './common.js';
import { gatewayListItem } from './organizations.js';

const gateways = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });

export const registerGateway = gateways({
  method: 'POST',
  path: '/v2/gateway',
  permission: 'gateway:manage',
  summary:
    'Register a gateway of a kind (native or a vendor format); the answer holds its credential (and, for devices that can send only a URL, its secret path), shown only this once',
  body: registerGatewayBody,
  responses: { 201: registerGatewayResponse },
  errors: [...BEARER_ERRORS, 409],
});

export const rotateGatewayCredential = gateways({
  method: 'POST',
  path: '/v2/gateway/{gatewayId}/credential',
  permission: 'gateway:manage',
  summary:
    'Rotate the credential (and the secret path where the kind has one): the old ones are refused at once',
  params: gatewayParams,
  responses: { 200: gatewayConnection },
});

/** A MAC (12 hex digits) or a DevEUI (16), upper case without separators, as adapters name devices. */
export const heardDeviceId = z
  .string()
  .regex(/^(?:[0-9A-F]{12}|[0-9A-F]{16})$/, 'a MAC (12) or DevEUI (16) in upper-case hex');

/** A device a gateway heard that is not registered as a bracelet of its organisation. */
export const unknownDevice = z.object({
  deviceId: z.string(),
  /** How it was heard: ibeacon, eddystone-uid, ingics-ibs01, lorawan, generic … */
  frame: z.string(),
  /** Last signal strength (dBm); null when the format carries none. */
  rssi: z.number().nullable(),
  beaconId: z.string().nullable(),
  firstHeardAt: z.string(),
  lastHeardAt: z.string(),
  /** Requests it was heard in since it was first listed. */
  timesHeard: z.number().int(),
});
export type UnknownDevice = z.infer<typeof unknownDevice>;

export const unknownDevicesResponse = z.object({
  gatewayId: z.string(),
  /** At most this many are kept per gateway; the least recently heard make room. */
  capacity: z.number().int(),
  devices: z.array(unknownDevice),
});
export type UnknownDevicesResponse = z.infer<typeof unknownDevicesResponse>;

export const listUnknownDevices = gateways({
  method: 'GET',
  path: '/v2/gateway/{gatewayId}/unknownDevices',
  permission: 'gateway:read',
  summary:
    'Devices the gateway heard that are not registered ("heard, not registered"), latest first, with their last signal and time; never stored as readings',
  params: gatewayParams,
  responses: { 200: unknownDevicesResponse },
});

export const unknownDeviceParams = gatewayParams.extend({ deviceId: heardDeviceId });

export const registerUnknownDevice = gateways({
  method: 'POST',
  path: '/v2/gateway/{gatewayId}/unknownDevices/{deviceId}/bracelet',
  permission: 'bracelet:register',
  summary:
    "Register a heard device as a bracelet of the gateway's organisation (serial number = its MAC or DevEUI); it leaves the list",
  params: unknownDeviceParams,
  responses: { 201: braceletView },
  errors: [...BEARER_ERRORS, 409],
});

export const deleteGateway = gateways({
  method: 'DELETE',
  path: '/v2/gateway/{gatewayId}',
  permission: 'gateway:manage',
  summary:
    'Retire a gateway: its credential is refused at once; its bracelets stay with their wearers, linked to no gateway',
  params: gatewayParams,
  responses: { 200: deleteGatewayResponse },
});

export const updateGateway = gateways({
  method: 'PATCH',
  path: '/v2/gateway/{gatewayId}',
  permission: 'gateway:manage',
  summary: 'Rename a gateway or move it to another group',
  params: gatewayParams,
  body: updateGatewayBody,
  responses: { 200: gatewayListItem },
});

export const listGateways = gateways({
  method: 'GET',
  path: '/v2/client/{clientId}/gateways',
  permission: 'gateway:read',
  summary: "An organisation's gateways with their status",
  params: z.object({ clientId: id }),
  query: gatewayListQuery,
  responses: { 200: gatewayListResponse },
});

export const getGateway = gateways({
  method: 'GET',
  path: '/v2/gateway/{gatewayId}',
  permission: 'gateway:read',
  summary: 'One gateway: status, bracelets behind it, latest environment',
  params: gatewayParams,
  responses: { 200: gatewayDetail },
});

export const getGatewayEnvironment = gateways({
  method: 'GET',
  path: '/v2/gateway/{gatewayId}/environment',
  permission: 'gateway:read',
  summary: "The gateway's temperature, humidity and WBGT over a period (default the last 24 h)",
  params: gatewayParams,
  query: environmentHistoryQuery,
  responses: { 200: environmentHistoryResponse },
});
