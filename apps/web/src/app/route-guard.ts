import { isPersonalRole, isPlatformRole, type Role } from '@wearable/domain';

/** What the guard decides on; `role` is null while the user info is still loading. */
export interface GuardState {
  hasToken: boolean;
  role: Role | null;
  hasSelectedDevice: boolean;
}

/** Static pages reachable by anyone, signed in or not (footer links). */
export const PUBLIC_PATHS = ['/terms', '/privacy'] as const;
const SIGN_IN_PATHS = ['/login', '/login/oidc', '/verify'];
const PERSONAL_PATHS = ['/user/record', '/user/info', '/select-device', '/user/settings/alert'];
const PERSONAL_SELF_PATHS = ['/user/record', '/user/info', '/user/settings/alert'];

export const STAFF_HOME = '/devices';
export const PERSONAL_HOME = '/user/record';

function normalise(path: string): string {
  const withoutQuery = path.split(/[?#]/)[0] ?? '/';
  return withoutQuery.length > 1 ? withoutQuery.replace(/\/+$/, '') : withoutQuery || '/';
}

/** One step of the specification's routing guard. */
function step(path: string, state: GuardState): string | null {
  if ((PUBLIC_PATHS as readonly string[]).includes(path)) return null;
  if (!state.hasToken) return SIGN_IN_PATHS.includes(path) ? null : '/login';
  if (path === '/' || SIGN_IN_PATHS.includes(path)) return STAFF_HOME;
  const role = state.role;
  if (role === null) return null;
  if (role === 'PERSONAL') {
    if (!PERSONAL_PATHS.includes(path)) return PERSONAL_HOME;
    return !state.hasSelectedDevice && path !== '/select-device' ? '/select-device' : null;
  }
  if (role === 'PERSONAL_SELF') return PERSONAL_SELF_PATHS.includes(path) ? null : PERSONAL_HOME;
  // Staff: the personal pages are not theirs (the spec names /user/record; the rest follow it), except
  // their own registration info, where two-step sign-in is turned on (issue 6).
  if (PERSONAL_PATHS.includes(path) && path !== '/user/info') return STAFF_HOME;
  // The organisation list spans every organisation: platform roles only.
  if (path === '/organization' && !isPlatformRole(role)) return STAFF_HOME;
  return null;
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
