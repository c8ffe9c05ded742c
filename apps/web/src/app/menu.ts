import type { Role } from '@wearable/domain';

export interface MenuEntry {
  to: string;
  /** i18n key in the common namespace. */
  labelKey: string;
}

const ORGANIZATIONS: MenuEntry = { to: '/organization', labelKey: 'menu.organizations' };
const STAFF: MenuEntry[] = [
  { to: '/devices', labelKey: 'menu.userList' },
  { to: '/alert-histories', labelKey: 'menu.alertHistory' },
  { to: '/settings/admins', labelKey: 'menu.settings' },
];
const PERSONAL: MenuEntry[] = [
  { to: '/user/record', labelKey: 'menu.record' },
  { to: '/user/info', labelKey: 'menu.registrationInfo' },
  { to: '/user/settings/alert', labelKey: 'menu.alertSetting' },
];

/** The main menu of each role (spec: Shell). */
export function menuEntries(role: Role): MenuEntry[] {
  switch (role) {
    case 'ALL_OWNER':
    case 'ALL_GENERAL':
      return [ORGANIZATIONS, ...STAFF];
    case 'ORGANIZATION_OWNER':
    case 'ORGANIZATION_GENERAL':
    case 'ORGANIZATION_GROUP':
      return STAFF;
    case 'PERSONAL':
    case 'PERSONAL_SELF':
      return PERSONAL;
  }
}
