import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/current-user';
import { isDemoPath } from '../lib/demo';
import { rememberReturnTo } from '../lib/return-to';
import { session } from '../lib/session';
import { AppSpinner } from './app-spinner';
import { paths } from '../config/paths';
import { resolveRoute } from './route-guard';

// With a token the guard needs the user and the query cache; signed out (the sign-in pages) it needs
// neither, so they load only with the first signed-in or demo page (issue 20: /login within 120 kB gzip).
const loadSignedInRoots = () => import('./signed-in-roots');
const SignedInRoot = lazy(async () => ({ default: (await loadSignedInRoots()).SignedInRoot }));
const LazyDemoRoot = lazy(async () => ({ default: (await loadSignedInRoots()).DemoRoot }));

/** At start-up, beside the locale files: a signed-in or demo page should not wait for them first. */
export function preloadGuards(pathname: string): void {
  if (shouldPreloadSignedIn(pathname)) void loadSignedInRoots();
}

/** Signed in, or in the demo: the page opened will be a signed-in one. */
export const shouldPreloadSignedIn = (pathname: string): boolean =>
  session.get().hasToken || isDemoPath(pathname);

/** The console: applies resolveRoute to every navigation (SignedInRoot once there is a token). */
export function ConsoleRoot() {
  const { hasToken } = useSession();
  const { pathname, search } = useLocation();
  if (hasToken) {
    return (
      <Suspense fallback={<AppSpinner />}>
        <SignedInRoot />
      </Suspense>
    );
  }
  // Signed out, only the kind of page decides (the sign-in pages, or /login).
  const target = resolveRoute(pathname, { hasToken: false, role: null, hasSelectedDevice: false });
  if (target === null) return <Outlet />;
  // Sent to sign in from a page of the console: it opens again after sign-in (lib/return-to.ts).
  if (target === paths.login.path) rememberReturnTo(pathname + search);
  return <Navigate to={target} replace />;
}

/** /demo: a fake organisation owner, no sign-in; the same guard on the path without /demo. */
export function DemoRoot() {
  return (
    <Suspense fallback={<AppSpinner />}>
      <LazyDemoRoot />
    </Suspense>
  );
}
