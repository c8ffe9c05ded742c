import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '../config/paths';
import { routes } from './routes';

/** Spec section 2: every route, with sample ids. */
const SPEC_PATHS = [
  '/_app',
  '/login',
  '/verify',
  '/',
  '/select-device',
  '/user/record',
  '/user/info',
  '/user/settings/alert',
  '/organization',
  '/organization/o1',
  '/organization/o1/gw1',
  '/organization/o1/member',
  '/devices',
  '/devices/alert-settings',
  '/devices/c1/u1',
  '/devices/c1/u1/alert',
  '/devices/c1/u1/alert_histories',
  '/devices/c1/u1/config',
  '/devices/c1/u1/member',
  '/devices/c1/u1/device_setting',
  '/alert-histories',
  '/gateways',
  '/gateways/o1/gw1',
  '/groups',
  '/groups/g1/alert-notice-settings',
  '/groups/g1/devices',
  '/groups/g1/devices/alert-settings',
  '/groups/g1/gateways',
  '/members',
  '/settings',
  '/settings/admins',
  '/settings/gateways',
  '/settings/groups',
  '/users',
];

const leafPath = (path: string) => {
  const matches = matchRoutes(routes, path) ?? [];
  const leaf = matches[matches.length - 1];
  return leaf?.route.index ? '(index)' : (leaf?.route.path ?? null);
};

describe('route registration', () => {
  it.each(SPEC_PATHS)('%s has its own route, in the console and under /demo', (path) => {
    for (const prefix of ['', '/demo']) {
      const leaf = leafPath(`${prefix}${path}` || '/');
      expect(leaf).not.toBeNull();
      expect(leaf).not.toBe('*');
    }
  });

  it.each(ALL_ROUTES.map((route) => [route.path, route] as const))(
    'the router matches %s with its table pattern',
    (_, route) => {
      const sample = route.path.replace(/:(\w+)/g, 'x1');
      const expected =
        route.path === '/'
          ? '(index)'
          : route.access.kind === 'public'
            ? route.path
            : route.path.slice(1);
      expect(leafPath(sample)).toBe(expected);
      if (route.access.kind !== 'public')
        expect(leafPath(`/demo${sample === '/' ? '' : sample}`)).toBe(expected);
    },
  );

  it('organization/:id/member is not taken for a gateway id', () => {
    expect(leafPath('/organization/o1/member')).toBe('organization/:id/member');
    expect(leafPath('/organization/o1/gw1')).toBe('organization/:id/:gatewayId');
  });

  it('an unknown path falls to the not-found page', () => {
    expect(leafPath('/nope/nothing')).toBe('*');
    expect(leafPath('/demo/nope')).toBe('*');
  });

  it('the legal pages sit outside the guard', () => {
    expect(matchRoutes(routes, '/terms')?.map((m) => m.route.path)).toEqual(['/terms']);
    expect(matchRoutes(routes, '/privacy')?.map((m) => m.route.path)).toEqual(['/privacy']);
  });
});
