import { isPersonalRole, type Role } from '@wearable/domain';
import { mayOpen, paths, type AppRoute } from '../config/paths';

export interface MenuEntry {
  to: string;
  /** i18n key in the common namespace. */
  labelKey: string;
}

type MenuItem = { route: AppRoute; labelKey: string };

/** The staff menu in order (spec: Shell); each role sees the entries whose page it may open. */
const STAFF_MENU: MenuItem[] = [
  { route: paths.organizations.list, labelKey: 'menu.organizations' },
  { route: paths.devices.list, labelKey: 'menu.userList' },
  { route: paths.alertHistories, labelKey: 'menu.alertHistory' },
  { route: paths.map, labelKey: 'menu.map' },
  { route: paths.settings.admins, labelKey: 'menu.settings' },
];
/** The personal menu (spec: Shell); staff reach /user/info from the user menu instead. */
const PERSONAL_MENU: MenuItem[] = [
  { route: paths.user.record, labelKey: 'menu.record' },
  { route: paths.user.info, labelKey: 'menu.registrationInfo' },
  { route: paths.user.alertSetting, labelKey: 'menu.alertSetting' },
];

/**
 * The settings area's own navigation (not in the spec's main menu, whose "settings" entry opens /settings/admins):
 * the pages of organising the fleet, shown on each of them. /groups and /gateways (live state) are reached here.
 */
const SETTINGS_MENU: MenuItem[] = [
  { route: paths.settings.admins, labelKey: 'settingsNav.admins' },
  { route: paths.settings.groups, labelKey: 'settingsNav.groupSettings' },
  { route: paths.groups.list, labelKey: 'settingsNav.groups' },
  { route: paths.settings.gateways, labelKey: 'settingsNav.gatewaySettings' },
  { route: paths.gateways.list, labelKey: 'settingsNav.gateways' },
  { route: paths.settings.sites, labelKey: 'settingsNav.sites' },
  { route: paths.settings.webhooks, labelKey: 'settingsNav.webhooks' },
  { route: paths.settings.home, labelKey: 'settingsNav.auditLog' },
];

/** The settings navigation of a role, on the pages it lists (empty elsewhere and for personal roles). */
export function settingsEntries(role: Role, current: AppRoute | null): MenuEntry[] {
  if (
    isPersonalRole(role) ||
    current === null ||
    !SETTINGS_MENU.some(({ route }) => route === current)
  )
    return [];
  return SETTINGS_MENU.filter(({ route }) => mayOpen(route, role)).map(({ route, labelKey }) => ({
    to: route.path,
    labelKey,
  }));
}

/** The main menu of a role. */
export function menuEntries(role: Role): MenuEntry[] {
  return (isPersonalRole(role) ? PERSONAL_MENU : STAFF_MENU)
    .filter(({ route }) => mayOpen(route, role))
    .map(({ route, labelKey }) => ({ to: route.path, labelKey }));
}
