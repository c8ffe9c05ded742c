import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { uidParams } from './common.js';
import {
  braceletView,
  deviceSetting,
  deviceSettingPatch,
  isPairedQuery,
  isPairedResponse,
  linkGatewayBody,
  linkResponse,
  registerBraceletBody,
  unlinkDeviceBody,
  unlinkGatewayBody,
} from './fleet-devices.js';

const bracelets = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });

export const registerBracelet = bracelets({
  method: 'POST',
  path: '/v2/device',
  permission: 'bracelet:register',
  summary: 'Register a bracelet for an organisation (409 on a known serial number)',
  body: registerBraceletBody,
  responses: { 201: braceletView },
  errors: [...BEARER_ERRORS, 409],
});

export const linkBraceletToGateway = bracelets({
  method: 'POST',
  path: '/v2/user/device/link/gateway',
  permission: 'bracelet:pair',
  summary: 'Pair: link a bracelet to a wearer and a gateway (pending until the gateway reports it)',
  body: linkGatewayBody,
  responses: { 200: linkResponse },
});

export const unlinkBraceletFromGateway = bracelets({
  method: 'POST',
  path: '/v2/user/device/unlink/gateway',
  permission: 'bracelet:pair',
  summary: 'Detach a bracelet from its gateway',
  body: unlinkGatewayBody,
  responses: { 200: linkResponse },
});

export const unlinkBracelet = bracelets({
  method: 'POST',
  path: '/v2/user/device/unlink',
  permission: 'bracelet:pair',
  summary: 'Detach a bracelet from its wearer (their history stays theirs)',
  body: unlinkDeviceBody,
  responses: { 200: linkResponse },
});

export const getPairedStatus = bracelets({
  method: 'GET',
  path: '/v2/device/isPairedWearable',
  permission: 'bracelet:read',
  summary: "Whether the wearer's bracelet has been reported by its gateway",
  query: isPairedQuery,
  responses: { 200: isPairedResponse },
});

export const getDeviceSetting = bracelets({
  method: 'GET',
  path: '/v2/user/{uid}/device/setting',
  permission: 'bracelet:read',
  summary:
    "The wearer's bracelet: name, duty cycle (pending or applied), battery, firmware, gateway",
  params: uidParams,
  responses: { 200: deviceSetting },
});

export const updateDeviceSetting = bracelets({
  method: 'PATCH',
  path: '/v2/user/{uid}/device/setting',
  permission: 'bracelet:pair',
  summary: 'Rename the bracelet or change its heart-rate duty cycle (1, 3, 5 or 10 minutes)',
  params: uidParams,
  body: deviceSettingPatch,
  responses: { 200: deviceSetting },
});
