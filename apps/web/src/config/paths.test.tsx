import { ROLES, type Role } from '@wearable/domain';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import en from '../../public/locales/en/common.json';
import ja from '../../public/locales/ja/common.json';
import { AppLink } from '../lib/app-path';
import { toAppPath } from '../lib/demo';
import '../testing/render';
import { ALL_ROUTES, mayOpen, paths, routeOf } from './paths';

/** Spec section 2, "Routes", as written there ({x} as :x). */
const SPEC_ROUTES = [
  '/_app',
  '/login',
  '/verify',
  '/',
  '/select-device',
  '/user/record',
  '/user/info',
  '/user/settings/alert',
  '/organization',
  '/organization/:id',
  '/organization/:id/:gatewayId',
  '/organization/:id/member',
  '/devices',
  '/devices/alert-settings',
  '/devices/:clientId/:uid',
  '/devices/:clientId/:uid/alert',
  '/devices/:clientId/:uid/alert_histories',
  '/devices/:clientId/:uid/config',
  '/devices/:clientId/:uid/member',
  '/devices/:clientId/:uid/device_setting',
  '/alert-histories',
  '/gateways',
  '/gateways/:organizationId/:gatewayId',
  '/groups',
  '/groups/:groupId/alert-notice-settings',
  '/groups/:groupId/devices',
  '/groups/:groupId/devices/alert-settings',
  '/groups/:groupId/gateways',
  '/members',
  '/settings',
  '/settings/admins',
  '/settings/gateways',
  '/settings/groups',
  '/users',
];
/** Beyond the spec: the OpenID sign-in return, the footer's legal pages, the monthly report, the email-change link, the setup checklist and an alert SMS's short link. */
const EXTRA = [
  '/login/oidc',
  '/terms',
  '/privacy',
  '/devices/:clientId/:uid/report',
  '/verify-email',
  '/groups/:groupId/heat-rule',
  '/groups/:groupId/round',
  '/alert-histories/handover',
  '/a/:code',
  '/settings/webhooks',
  '/settings/sites',
  '/map',
  '/setup',
  '/devices/import',
  '/reset-password',
  // Issue 38: the page a push notification's 確認 opens.
  '/alerts/:alertId/confirm',
  // Issue 38: the organisation's chat channels (Slack, Teams, LINE WORKS).
  '/settings/chat-channels',
];

describe('the paths table', () => {
  it('holds every route of the specification exactly once, and the extra pages', () => {
    const table = ALL_ROUTES.map((route) => route.path);
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual([...SPEC_ROUTES, ...EXTRA].sort());
  });

  it.each(ALL_ROUTES.map((route) => [route.path, route.titleKey]))(
    '%s has a title in Japanese and English (%s)',
    (_, key) => {
      const lookup = (bundle: object) =>
        key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], bundle);
      expect(typeof lookup(ja)).toBe('string');
      expect(typeof lookup(en)).toBe('string');
    },
  );
});

describe('builders', () => {
  it.each([
    [paths.devices.list.build(), '/devices'],
    [paths.device.detail.build({ clientId: 'org-1', uid: 'u-1' }), '/devices/org-1/u-1'],
    [paths.device.alert.build({ clientId: 'org-1', uid: 'u-1' }), '/devices/org-1/u-1/alert'],
    [
      paths.device.alertHistories.build({ clientId: 'org 1', uid: 'a/b' }),
      '/devices/org%201/a%2Fb/alert_histories',
    ],
    [paths.organizations.detail.build({ id: 'org-1' }), '/organization/org-1'],
    [
      paths.organizations.gateway.build({ id: 'org-1', gatewayId: 'gw-1' }),
      '/organization/org-1/gw-1',
    ],
    [paths.organizations.members.build({ id: 'org-1' }), '/organization/org-1/member'],
    [
      paths.gateways.detail.build({ organizationId: 'org-1', gatewayId: 'gw-1' }),
      '/gateways/org-1/gw-1',
    ],
    [
      paths.groups.devicesAlertSettings.build({ groupId: 'g-1' }),
      '/groups/g-1/devices/alert-settings',
    ],
    [paths.root.build(), '/'],
  ])('%s', (built, expected) => {
    expect(built).toBe(expected);
  });

  it('under /demo the same link gets the prefix', () => {
    const link = paths.device.alert.build({ clientId: 'org-1', uid: 'u-1' });
    expect(toAppPath(link, true)).toBe('/demo/devices/org-1/u-1/alert');
    expect(toAppPath(paths.root.build(), true)).toBe('/demo');
    render(
      <MemoryRouter initialEntries={['/demo/devices']}>
        <AppLink to={link}>wearer</AppLink>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'wearer' }).getAttribute('href')).toBe(
      '/demo/devices/org-1/u-1/alert',
    );
  });

  it('every pattern rebuilds to a path that routes back to it', () => {
    for (const route of ALL_ROUTES) {
      const sample = route.path.replace(/:(\w+)/g, (_, name: string) => `${name}-1`);
      expect(routeOf(sample)).toBe(route);
    }
  });
});

describe('routeOf', () => {
  it('prefers a fixed segment over a parameter', () => {
    expect(routeOf('/organization/o1/member')).toBe(paths.organizations.members);
    expect(routeOf('/organization/o1/gw1')).toBe(paths.organizations.gateway);
    expect(routeOf('/devices/alert-settings')).toBe(paths.devices.alertSettings);
  });

  it('knows no other page', () => {
    expect([routeOf('/nope'), routeOf('/devices/c1'), routeOf('/devices/c1/u1/nope')]).toEqual([
      null,
      null,
      null,
    ]);
  });
});

/** Who may open each page once signed in: the guard sends the others home, the menus hide it. */
const STAFF: Role[] = [
  'ALL_OWNER',
  'ALL_GENERAL',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
];
const PLATFORM: Role[] = ['ALL_OWNER', 'ALL_GENERAL'];
const OPENED_BY: Record<string, Role[] | 'everyone'> = {
  '/login': [],
  '/login/oidc': [],
  '/verify': [],
  '/': [],
  '/terms': 'everyone',
  '/privacy': 'everyone',
  '/verify-email': 'everyone',
  '/reset-password': 'everyone',
  // wearer:manage: every staff role but platform general staff (who read, not change).
  '/devices/import': [
    'ALL_OWNER',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_GROUP',
  ],
  '/select-device': ['PERSONAL'],
  '/user/record': ['PERSONAL', 'PERSONAL_SELF'],
  '/user/info': 'everyone',
  '/user/settings/alert': ['PERSONAL', 'PERSONAL_SELF'],
  '/organization': PLATFORM,
  '/users': PLATFORM,
  // webhook:read: owners of the platform and of an organisation, and platform general staff.
  '/settings/webhooks': ['ALL_OWNER', 'ALL_GENERAL', 'ORGANIZATION_OWNER'],
};

describe('mayOpen: role x route', () => {
  it.each(ALL_ROUTES.map((route) => [route.path, route] as const))('%s', (path, route) => {
    const expected = OPENED_BY[path] ?? STAFF;
    const opening = ROLES.filter((role) => mayOpen(route, role));
    expect(opening).toEqual(expected === 'everyone' ? [...ROLES] : expected);
  });

  it('/settings/admins needs member:read', () => {
    expect(paths.settings.admins.access).toEqual({ kind: 'staff', permission: 'member:read' });
  });
});
