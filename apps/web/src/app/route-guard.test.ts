import { ROLES, type Role } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { homeFor, resolveRoute, type GuardState } from './route-guard';

/**
 * The routing guard as a table (spec section 2, "Routing guard"). Each cell is where the
 * guard sends that person opening that path; '·' means they stay.
 * Columns: no token | ALL_OWNER | ALL_GENERAL | ORG_OWNER | ORG_GENERAL | ORG_GROUP |
 *          PERSONAL without a selected device | PERSONAL with one | PERSONAL_SELF
 */
const COLUMNS: { title: string; state: GuardState }[] = [
  { title: 'no token', state: { hasToken: false, role: null, hasSelectedDevice: false } },
  ...(
    [
      'ALL_OWNER',
      'ALL_GENERAL',
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
    ] as const
  ).map((role) => ({ title: role, state: { hasToken: true, role, hasSelectedDevice: false } })),
  {
    title: 'PERSONAL, no device',
    state: { hasToken: true, role: 'PERSONAL', hasSelectedDevice: false },
  },
  {
    title: 'PERSONAL, device',
    state: { hasToken: true, role: 'PERSONAL', hasSelectedDevice: true },
  },
  {
    title: 'PERSONAL_SELF',
    state: { hasToken: true, role: 'PERSONAL_SELF', hasSelectedDevice: false },
  },
];

const D = '/devices';
const R = '/user/record';
const S = '/select-device';
const L = '/login';

// prettier-ignore
const TABLE: [path: string, ...cells: string[]][] = [
  //  path                          none  A_OWN A_GEN O_OWN O_GEN O_GRP P-dev P+dev SELF
  ['/',                              L,    D,    D,    D,    D,    D,    S,    R,    R],
  ['/login',                         '·',  D,    D,    D,    D,    D,    S,    R,    R],
  ['/verify',                        '·',  D,    D,    D,    D,    D,    S,    R,    R],
  ['/user/record',                   L,    D,    D,    D,    D,    D,    S,    '·',  '·'],
  ['/user/info',                     L,    '·',  '·',  '·',  '·',  '·',  S,    '·',  '·'],
  ['/user/settings/alert',           L,    D,    D,    D,    D,    D,    S,    '·',  '·'],
  ['/select-device',                 L,    D,    D,    D,    D,    D,    '·',  '·',  R],
  ['/organization',                  L,    '·',  '·',  D,    D,    D,    S,    R,    R],
  ['/organization/org-1',            L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/organization/org-1/member',     L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/organization/org-1/gw-1',       L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices',                       L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/alert-settings',        L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1',               L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1/alert',         L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1/alert_histories', L,  '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1/config',        L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1/member',        L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/devices/c-1/u-1/device_setting', L,   '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/alert-histories',               L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/gateways',                      L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/gateways/org-1/gw-1',           L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/groups',                        L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/groups/g-1/alert-notice-settings', L, '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/groups/g-1/devices',            L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/groups/g-1/devices/alert-settings', L, '·', '·',  '·',  '·',  '·',  S,    R,    R],
  ['/groups/g-1/gateways',           L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/members',                       L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/settings',                      L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/settings/admins',               L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/settings/gateways',             L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/settings/groups',               L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/settings/sites',                L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  // Chat channels (chatChannel:read): every staff role sees which exist; owners set them up.
  ['/settings/chat-channels',        L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  // Where everyone is (place:read): every staff role; personal users are sent home.
  ['/map',                           L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  // Webhooks (webhook:read): owners and platform staff; other staff are sent home.
  ['/settings/webhooks',             L,    '·',  '·',  '·',  D,    D,    S,    R,    R],
  // /users finds people across organisations (user:lookup): platform staff only, like /organization.
  ['/users',                         L,    '·',  '·',  D,    D,    D,    S,    R,    R],
  ['/_app',                          L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  ['/no-such-page',                  L,    '·',  '·',  '·',  '·',  '·',  S,    R,    R],
  // Static legal pages are outside the guard for everyone.
  ['/terms',                         '·',  '·',  '·',  '·',  '·',  '·',  '·',  '·',  '·'],
  ['/privacy',                       '·',  '·',  '·',  '·',  '·',  '·',  '·',  '·',  '·'],
];

describe('resolveRoute: role x path', () => {
  for (const [path, ...cells] of TABLE) {
    it(`${path}`, () => {
      const actual = COLUMNS.map(({ state }) => resolveRoute(path, state) ?? '·');
      expect(actual).toEqual(cells);
    });
  }

  it('the table covers every role', () => {
    const covered = new Set(
      COLUMNS.map(({ state }) => state.role).filter((role): role is Role => role !== null),
    );
    expect([...covered].sort()).toEqual([...ROLES].sort());
  });
});

describe('resolveRoute: details', () => {
  const owner: GuardState = {
    hasToken: true,
    role: 'ORGANIZATION_OWNER',
    hasSelectedDevice: false,
  };

  it('ignores a trailing slash, a query and a hash', () => {
    expect(resolveRoute('/user/record/', owner)).toBe('/devices');
    expect(resolveRoute('/login?lng=en', owner)).toBe('/devices');
    expect(resolveRoute('/devices#top', owner)).toBeNull();
  });

  it('while the user info loads, only the token rules apply', () => {
    const loading: GuardState = { hasToken: true, role: null, hasSelectedDevice: false };
    expect(resolveRoute('/', loading)).toBe('/devices');
    expect(resolveRoute('/login', loading)).toBe('/devices');
    expect(resolveRoute('/user/record', loading)).toBeNull();
  });

  it('the logo points to each role home', () => {
    expect(ROLES.map((role) => [role, homeFor(role)])).toEqual([
      ['ALL_OWNER', '/devices'],
      ['ALL_GENERAL', '/devices'],
      ['ORGANIZATION_OWNER', '/devices'],
      ['ORGANIZATION_GENERAL', '/devices'],
      ['ORGANIZATION_GROUP', '/devices'],
      ['PERSONAL', '/user/record'],
      ['PERSONAL_SELF', '/user/record'],
    ]);
  });
});
