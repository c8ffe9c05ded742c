import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '../components/ui/button';
import { DemoUserProvider, useSession } from '../lib/current-user';
import { stripDemoPrefix, toAppPath } from '../lib/demo';
import { session } from '../lib/session';
import { loadUserInfo } from '../lib/session-api';
import { AppSpinner } from './app-spinner';
import { loadDemoUser } from './demo-user';
import { QueryRoot } from './query-root';
import { resolveRoute } from './route-guard';

/** The console with a token (see ConsoleRoot): loads the user, then applies resolveRoute to every navigation. */
export function SignedInRoot() {
  return (
    <QueryRoot>
      <SignedInGuard />
    </QueryRoot>
  );
}

function SignedInGuard() {
  const { hasToken, user, selectedDevice } = useSession();
  const { pathname } = useLocation();
  // Refresh the stored user info once per app start; the guard waits only when none is stored.
  const userQuery = useQuery({
    queryKey: ['session-user'],
    queryFn: async () => {
      const result = await loadUserInfo();
      if (!result.ok) throw new Error(`GET /v2/user failed with ${result.status}`);
      return result.data;
    },
    enabled: hasToken,
    staleTime: Infinity,
  });
  if (hasToken && user === null) {
    return userQuery.isError ? (
      <UserLoadError onRetry={() => void userQuery.refetch()} />
    ) : (
      <AppSpinner />
    );
  }
  const target = resolveRoute(pathname, {
    hasToken,
    role: user?.role ?? null,
    hasSelectedDevice: selectedDevice !== null,
  });
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}

function UserLoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <main
      role="alert"
      className="mx-auto mt-24 max-w-sm rounded-lg border border-red-200 bg-white p-6 text-sm"
    >
      <p>{t('shell.userLoadFailed')}</p>
      <div className="mt-4 flex gap-2">
        <Button variant="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
        <Button variant="outline" onClick={() => session.end()}>
          {t('userMenu.logout')}
        </Button>
      </div>
    </main>
  );
}

/** /demo: a fake organisation owner, no sign-in; the same guard on the path without /demo. */
export function DemoRoot() {
  return (
    <QueryRoot>
      <DemoGuard />
    </QueryRoot>
  );
}

function DemoGuard() {
  const { pathname } = useLocation();
  const demoUser = useQuery({
    queryKey: ['demo-user'],
    queryFn: loadDemoUser,
    staleTime: Infinity,
  });
  if (demoUser.data === undefined) return <AppSpinner />;
  const target = resolveRoute(stripDemoPrefix(pathname), {
    hasToken: true,
    role: demoUser.data.role,
    hasSelectedDevice: true,
  });
  if (target !== null) return <Navigate to={toAppPath(target, true)} replace />;
  return (
    <DemoUserProvider value={demoUser.data}>
      <Outlet />
    </DemoUserProvider>
  );
}
