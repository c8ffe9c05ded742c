import { describe, expect, it } from 'vitest';
import { getAlertPolicy, updateAlertPolicy } from './alert-policy.js';
import { bareEndpoint, endpointPath, routerPath } from './endpoint.js';

describe('endpoint declarations', () => {
  it('build the called path from params, encoded, and refuse a missing one', () => {
    expect(endpointPath(getAlertPolicy.path, { organizationId: 'o 1/2' })).toBe(
      '/v2/organization/o%201%2F2/alertPolicy',
    );
    expect(() => endpointPath(getAlertPolicy.path, {})).toThrow(/organizationId/);
    expect(() => endpointPath(getAlertPolicy.path, { organizationId: '' })).toThrow();
  });

  it('give Fastify its path and every endpoint an id of method and path', () => {
    expect(routerPath(updateAlertPolicy.path)).toBe('/v2/organization/:organizationId/alertPolicy');
    expect(getAlertPolicy.id).toBe('GET /v2/organization/{organizationId}/alertPolicy');
    expect(updateAlertPolicy.id).not.toBe(getAlertPolicy.id);
  });

  it('a bare endpoint has the id of the endpoint it stands for', () => {
    const bare = bareEndpoint<typeof getAlertPolicy>('GET', getAlertPolicy.path);
    expect(bare.id).toBe(getAlertPolicy.id);
  });
});
