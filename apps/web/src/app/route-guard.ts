import { isPersonalRole, type Role } from '@wearable/domain';
import { ALL_ROUTES, mayOpen, paths, routeOf } from '../config/paths';

/** What the guard decides on; `role` is null while the user info is still loading. */
export interface GuardState {
  hasToken: boolean;
  role: Role | null;
  hasSelectedDevice: boolean;
}

/** Static pages reachable by anyone, signed in or not (footer links). */
export const PUBLIC_PATHS = ALL_ROUTES.filter((route) => route.access.kind === 'public').map(
  (route) => route.path,
);

export const STAFF_HOME = paths.devices.list.path;
export const PERSONAL_HOME = paths.user.record.path;

function normalise(path: string): string {
  const withoutQuery = path.split(/[?#]/)[0] ?? '/';
  return withoutQuery.length > 1 ? withoutQuery.replace(/\/+$/, '') : withoutQuery || '/';
}

/**
 * One step of the specification's routing guard. Who may open which page is the paths table's
 * (`mayOpen`): the personal pages name their roles as the spec does; a staff role is sent home
 * from a page whose permission it lacks (the organisation list and /users span every organisation).
 */
function step(path: string, state: GuardState): string | null {
  const route = routeOf(path);
  const kind = route?.access.kind;
  if (kind === 'public') return null;
  if (!state.hasToken) return kind === 'signedOut' ? null : paths.login.path;
  if (kind === 'entry' || kind === 'signedOut') return STAFF_HOME;
  const role = state.role;
  if (role === null) return null;
  if (isPersonalRole(role)) {
    if (route === null || !mayOpen(route, role)) return PERSONAL_HOME;
    // PERSONAL looks at one linked wearer at a time, chosen on /select-device (kept in local storage).
    const mustChoose =
      role === 'PERSONAL' && !state.hasSelectedDevice && route !== paths.selectDevice;
    return mustChoose ? paths.selectDevice.path : null;
  }
  // Staff on an unknown page see the not-found page.
  return route === null || mayOpen(route, role) ? null : STAFF_HOME;
}

/**
 * Where the guard sends someone opening `path`, or null when they may stay.
 * Follows the rules to the final page (/ -> /devices -> /user/record -> /select-device),
 * so the browser is redirected once.
 */
export function resolveRoute(path: string, state: GuardState): string | null {
  let current = normalise(path);
  let redirected = false;
  for (let i = 0; i < 5; i += 1) {
    const next = step(current, state);
    if (next === null || next === current) break;
    current = next;
    redirected = true;
  }
  return redirected ? current : null;
}

/** The home page of a role: where the logo points. */
export const homeFor = (role: Role | null): string =>
  role !== null && isPersonalRole(role) ? PERSONAL_HOME : STAFF_HOME;
