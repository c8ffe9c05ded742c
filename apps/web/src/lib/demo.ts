/** Everything under /demo is the read-only demo (spec: demo mode). */
export const DEMO_PREFIX = '/demo';

export const isDemoPath = (pathname: string): boolean =>
  pathname === DEMO_PREFIX || pathname.startsWith(`${DEMO_PREFIX}/`);

/** An internal path as the current mode needs it: `/devices` becomes `/demo/devices` in the demo. */
export function toAppPath(path: string, demo: boolean): string {
  if (!demo || !path.startsWith('/') || isDemoPath(path)) return path;
  return path === '/' ? DEMO_PREFIX : `${DEMO_PREFIX}${path}`;
}

/** The app path without the demo prefix, so the guard and menus see one route tree. */
export function stripDemoPrefix(pathname: string): string {
  if (!isDemoPath(pathname)) return pathname;
  const rest = pathname.slice(DEMO_PREFIX.length);
  return rest === '' ? '/' : rest;
}
