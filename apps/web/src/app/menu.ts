import { holds, isPersonalRole, type Permission, type Role } from '@wearable/domain';
import { mayOpen, paths, type AppRoute } from '../config/paths';

export interface MenuEntry {
  to: string;
  /** i18n key in the common namespace. */
  labelKey: string;
}

/**
 * `permission`: shown only to roles that hold it too (the page may be open to more, e.g. /members is
 * read by every staff role but only those who may add a wearer get 装着者を追加); `search`: the query
 * the entry opens the page with.
 */
type MenuItem = { route: AppRoute; labelKey: string; permission?: Permission; search?: string };

/** The staff menu in order (spec: Shell); each role sees the entries whose page it may open. */
const STAFF_MENU: MenuItem[] = [
  { route: paths.organizations.list, labelKey: 'menu.organizations' },
  { route: paths.devices.list, labelKey: 'menu.userList' },
  {
    route: paths.members,
    labelKey: 'menu.addWearer',
    permission: 'wearer:manage',
    search: '?add=1',
  },
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
  { route: paths.setup, labelKey: 'settingsNav.setup' },
  { route: paths.settings.groups, labelKey: 'settingsNav.groupSettings' },
  { route: paths.groups.list, labelKey: 'settingsNav.groups' },
  { route: paths.settings.gateways, labelKey: 'settingsNav.gatewaySettings' },
  { route: paths.gateways.list, labelKey: 'settingsNav.gateways' },
  { route: paths.settings.sites, labelKey: 'settingsNav.sites' },
  { route: paths.settings.webhooks, labelKey: 'settingsNav.webhooks' },
  { route: paths.settings.chatChannels, labelKey: 'settingsNav.chatChannels' },
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

/**
 * The main menu of a role. `setupPending`: the person's organisation has not finished its setup
 * checklist, which then comes first (issue 35); once done it is reached from the settings.
 */
export function menuEntries(role: Role, { setupPending = false } = {}): MenuEntry[] {
  const entries = (isPersonalRole(role) ? PERSONAL_MENU : STAFF_MENU)
    .filter(
      ({ route, permission }) =>
        mayOpen(route, role) && (permission === undefined || holds({ role }, permission)),
    )
    .map(({ route, labelKey, search }) => ({ to: `${route.path}${search ?? ''}`, labelKey }));
  return setupPending && mayOpen(paths.setup, role)
    ? [{ to: paths.setup.path, labelKey: 'menu.setup' }, ...entries]
    : entries;
}
