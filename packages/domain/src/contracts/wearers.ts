import { wearerListQuery, wearerListResponse } from './devices.js';
import { endpointsOf } from './endpoint.js';

/** The wearers the caller may see (people, devices and records pick from it). */
export const listWearers = endpointsOf({ tags: ['Identity'], errors: [400, 401, 404] })({
  method: 'GET',
  path: '/v2/user/device/list',
  permission: 'wearer:read',
  summary: 'Wearers the caller may see, sorted by name (Japanese collation)',
  query: wearerListQuery,
  responses: { 200: wearerListResponse },
});
