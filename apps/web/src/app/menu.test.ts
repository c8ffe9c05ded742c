import { ROLES, type Role } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { routeOf } from '../config/paths';
import { menuEntries, settingsEntries } from './menu';

/** Spec, Shell: the main menu of each role, in order, with its label. */
const EXPECTED: Record<Role, [string, string][]> = {
  ALL_OWNER: [
    ['/organization', 'menu.organizations'],
    ['/devices', 'menu.userList'],
    ['/members?add=1', 'menu.addWearer'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/map', 'menu.map'],
    ['/settings/admins', 'menu.settings'],
  ],
  ALL_GENERAL: [
    ['/organization', 'menu.organizations'],
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/map', 'menu.map'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_OWNER: [
    ['/devices', 'menu.userList'],
    ['/members?add=1', 'menu.addWearer'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/map', 'menu.map'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_GENERAL: [
    ['/devices', 'menu.userList'],
    ['/members?add=1', 'menu.addWearer'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/map', 'menu.map'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_GROUP: [
    ['/devices', 'menu.userList'],
    ['/members?add=1', 'menu.addWearer'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/map', 'menu.map'],
    ['/settings/admins', 'menu.settings'],
  ],
  PERSONAL: [
    ['/user/record', 'menu.record'],
    ['/user/info', 'menu.registrationInfo'],
    ['/user/settings/alert', 'menu.alertSetting'],
  ],
  PERSONAL_SELF: [
    ['/user/record', 'menu.record'],
    ['/user/info', 'menu.registrationInfo'],
    ['/user/settings/alert', 'menu.alertSetting'],
  ],
};

describe('main menu per role', () => {
  for (const role of ROLES) {
    it(role, () => {
      expect(menuEntries(role).map((entry) => [entry.to, entry.labelKey])).toEqual(EXPECTED[role]);
    });
  }
});

describe('settings navigation (the /settings pages, /groups and /gateways; not in the spec main menu)', () => {
  const on = (path: string) => routeOf(path);
  it('lists the fleet pages an owner may open, only on those pages', () => {
    expect(
      settingsEntries('ORGANIZATION_OWNER', on('/settings/gateways')).map((e) => e.to),
    ).toEqual([
      '/settings/admins',
      '/setup',
      '/settings/groups',
      '/groups',
      '/settings/gateways',
      '/gateways',
      '/settings/sites',
      '/settings/webhooks',
      '/settings/chat-channels',
      '/settings',
    ]);
    expect(settingsEntries('ORGANIZATION_OWNER', on('/groups')).map((e) => e.to)).toContain(
      '/groups',
    );
    expect(settingsEntries('ORGANIZATION_OWNER', on('/devices'))).toEqual([]);
    expect(settingsEntries('ORGANIZATION_OWNER', null)).toEqual([]);
  });
  it('the setup checklist leads the main menu until it is done (issue 35)', () => {
    expect(menuEntries('ORGANIZATION_OWNER', { setupPending: true })[0]).toEqual({
      to: '/setup',
      labelKey: 'menu.setup',
    });
    expect(menuEntries('ORGANIZATION_OWNER').map((e) => e.to)).not.toContain('/setup');
    expect(menuEntries('PERSONAL', { setupPending: true }).map((e) => e.to)).not.toContain(
      '/setup',
    );
  });
  it('personal roles never get it', () => {
    expect(settingsEntries('PERSONAL', on('/settings/admins'))).toEqual([]);
  });
  it('a group manager gets /groups', () => {
    expect(
      settingsEntries('ORGANIZATION_GROUP', on('/settings/admins')).map((e) => e.to),
    ).toContain('/groups');
  });
});
