import { ROLES, type Role } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { menuEntries } from './menu';

/** Spec, Shell: the main menu of each role, in order, with its label. */
const EXPECTED: Record<Role, [string, string][]> = {
  ALL_OWNER: [
    ['/organization', 'menu.organizations'],
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/settings/admins', 'menu.settings'],
  ],
  ALL_GENERAL: [
    ['/organization', 'menu.organizations'],
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_OWNER: [
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_GENERAL: [
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
    ['/settings/admins', 'menu.settings'],
  ],
  ORGANIZATION_GROUP: [
    ['/devices', 'menu.userList'],
    ['/alert-histories', 'menu.alertHistory'],
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
