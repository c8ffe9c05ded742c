import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchPath, type RouteObject } from 'react-router';
import { paths, type AppRoute } from '../config/paths';
import { DEMO_PREFIX } from '../lib/demo';
import { AppSpinner } from './app-spinner';
import { DemoRoot, ConsoleRoot } from './guards';

/**
 * One chunk per page (React.lazy), so /login loads only what it shows. Each page comes with the query cache
 * (QueryRoot, loaded beside it); the login page alone does without (LoginPage below).
 */
/** What each lazy page element loads, so start-up can begin loading the page it opens on. */
const pageLoads = new WeakMap<object, () => Promise<unknown>>();

function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const loadAll = () => Promise.all([load(), import('./query-root')]);
  const Page = lazy(async () => {
    const [page, { QueryRoot }] = await loadAll();
    const Loaded: ComponentType = page[name];
    return {
      default: () => (
        <QueryRoot>
          <Loaded />
        </QueryRoot>
      ),
    };
  });
  const element = <Page />;
  pageLoads.set(element, loadAll);
  return element;
}

/** The sign-in form: no query cache, no toasts, no schemas (issue 20: /login within 120 kB gzip). */
const LoginPage = lazy(async () => ({
  default: (await import('../features/auth/components/login-page')).LoginPage,
}));

const suspended = (node: ReactNode) => <Suspense fallback={<AppSpinner />}>{node}</Suspense>;
/** Inside the shell the header stays; only the page area waits. */
const suspendedPage = (node: ReactNode) => (
  <Suspense fallback={<AppSpinner fullScreen={false} />}>{node}</Suspense>
);

const ShellLayout = lazy(async () => ({
  default: (await import('./shell/shell-layout')).ShellLayout,
}));
const Placeholder = lazy(async () => ({
  default: (await import('./placeholder-page')).PlaceholderPage,
}));

const NotFound = lazy(async () => ({ default: (await import('./not-found-page')).NotFoundPage }));

/** A registered route whose page comes with a later issue: its title from the paths table. */
const page = (route: AppRoute, element?: ReactNode) => ({
  route,
  element: element ?? <Placeholder titleKey={route.titleKey} />,
});

/** Pages inside the shell, from the paths table (spec section 2, in its order); mounted at / and /demo. */
const SHELL_ROUTES: { route: AppRoute; element: ReactNode }[] = [
  page(paths.app),
  page(
    paths.selectDevice,
    lazyPage(() => import('../features/user/components/select-device-page'), 'SelectDevicePage'),
  ),
  page(
    paths.user.record,
    lazyPage(() => import('./pages/personal-record-page'), 'PersonalRecordPage'),
  ),
  page(
    paths.user.info,
    lazyPage(() => import('./pages/user-info-with-sign-in'), 'UserInfoWithSignInPage'),
  ),
  page(
    paths.user.alertSetting,
    lazyPage(() => import('./pages/personal-alert-settings-page'), 'PersonalAlertSettingsPage'),
  ),
  page(
    paths.organizations.list,
    lazyPage(
      () => import('../features/organizations/components/organizations-page'),
      'OrganizationsPage',
    ),
  ),
  page(
    paths.organizations.detail,
    lazyPage(() => import('./pages/organization-detail-page'), 'OrganizationDetailPage'),
  ),
  page(
    paths.organizations.members,
    lazyPage(() => import('../features/people/components/members-page'), 'OrganizationMembersPage'),
  ),
  page(
    paths.organizations.gateway,
    lazyPage(
      () => import('../features/gateways/components/gateway-pages'),
      'OrganizationGatewayPage',
    ),
  ),
  page(
    paths.devices.list,
    lazyPage(() => import('./pages/devices-live-page'), 'DevicesLivePage'),
  ),
  page(
    paths.devices.import,
    lazyPage(() => import('./pages/devices-import-page'), 'DevicesImportPage'),
  ),
  page(
    paths.devices.alertSettings,
    lazyPage(() => import('./pages/bulk-alert-settings-page'), 'DevicesAlertSettingsPage'),
  ),
  page(
    paths.device.detail,
    lazyPage(() => import('./pages/wearer-detail-page'), 'WearerDetailPage'),
  ),
  page(
    paths.device.alert,
    lazyPage(() => import('./pages/wearer-subpages'), 'WearerAlertSettingsPage'),
  ),
  page(
    paths.device.alertHistories,
    lazyPage(() => import('./pages/wearer-subpages'), 'WearerAlertHistoriesPage'),
  ),
  page(
    paths.device.config,
    lazyPage(() => import('./pages/wearer-subpages'), 'WearerConfigPage'),
  ),
  page(
    paths.device.member,
    lazyPage(() => import('./pages/wearer-subpages'), 'WearerMemberPage'),
  ),
  page(
    paths.device.setting,
    lazyPage(() => import('./pages/wearer-subpages'), 'WearerDeviceSettingPage'),
  ),
  page(
    paths.device.report,
    lazyPage(() => import('./pages/wearer-report-page'), 'WearerReportPage'),
  ),
  page(
    paths.alertHistories,
    lazyPage(
      () => import('../features/alerts/components/alert-histories-page'),
      'AlertHistoriesPage',
    ),
  ),
  page(
    paths.alertLink,
    lazyPage(() => import('../features/alerts/components/alert-link-page'), 'AlertLinkPage'),
  ),
  page(
    paths.alertConfirm,
    lazyPage(() => import('../features/alerts/components/alert-confirm-page'), 'AlertConfirmPage'),
  ),
  page(
    paths.alertHandover,
    lazyPage(() => import('../features/alerts/components/handover-page'), 'HandoverPage'),
  ),
  page(
    paths.gateways.list,
    lazyPage(() => import('../features/gateways/components/gateway-pages'), 'GatewaysPage'),
  ),
  page(
    paths.gateways.detail,
    lazyPage(() => import('../features/gateways/components/gateway-pages'), 'GatewayDetailPage'),
  ),
  page(
    paths.groups.list,
    lazyPage(() => import('./pages/groups-page'), 'GroupsPage'),
  ),
  page(
    paths.groups.alertNoticeSettings,
    lazyPage(() => import('./pages/notice-settings-page'), 'NoticeSettingsPage'),
  ),
  page(
    paths.groups.heatRule,
    lazyPage(() => import('./pages/heat-rule-page'), 'HeatRulePage'),
  ),
  page(
    paths.groups.nightRound,
    lazyPage(() => import('./pages/night-round-page'), 'NightRoundPage'),
  ),
  page(
    paths.groups.devices,
    lazyPage(() => import('./pages/devices-live-page'), 'GroupDevicesLivePage'),
  ),
  page(
    paths.groups.devicesAlertSettings,
    lazyPage(() => import('./pages/bulk-alert-settings-page'), 'GroupDevicesAlertSettingsPage'),
  ),
  page(
    paths.groups.gateways,
    lazyPage(() => import('../features/gateways/components/gateway-pages'), 'GroupGatewaysPage'),
  ),
  page(
    paths.members,
    lazyPage(() => import('../features/people/components/members-page'), 'MembersPage'),
  ),
  page(
    paths.setup,
    lazyPage(() => import('../features/setup/components/setup-page'), 'SetupPage'),
  ),
  page(
    paths.settings.home,
    lazyPage(() => import('./pages/settings-home-page'), 'SettingsHomePage'),
  ),
  page(
    paths.settings.admins,
    lazyPage(() => import('./pages/settings-admins-page'), 'SettingsAdminsPage'),
  ),
  page(
    paths.settings.gateways,
    lazyPage(
      () => import('../features/gateways/components/gateway-settings-page'),
      'GatewaySettingsPage',
    ),
  ),
  page(
    paths.settings.groups,
    lazyPage(
      () => import('../features/groups/components/group-settings-page'),
      'GroupSettingsPage',
    ),
  ),
  page(
    paths.settings.webhooks,
    lazyPage(() => import('./pages/settings-webhooks-page'), 'SettingsWebhooksPage'),
  ),
  page(
    paths.settings.chatChannels,
    lazyPage(() => import('./pages/settings-chat-channels-page'), 'SettingsChatChannelsPage'),
  ),
  page(
    paths.settings.sites,
    lazyPage(() => import('./pages/settings-sites-page'), 'SettingsSitesPage'),
  ),
  page(
    paths.map,
    lazyPage(() => import('./pages/map-page'), 'MapPage'),
  ),
  page(
    paths.users,
    lazyPage(() => import('../features/users/components/users-page'), 'UsersPage'),
  ),
];

/** A table path relative to its root (/ or /demo): '/devices/:clientId/:uid' -> 'devices/:clientId/:uid'. */
const relative = (route: AppRoute) => route.path.slice(1);

/** The tree under one root: sign-in pages, then the shell. Mounted at / and at /demo. */
function appTree(): RouteObject[] {
  return [
    { index: true, element: null }, // the guard always redirects /
    {
      path: relative(paths.login),
      element: suspended(<LoginPage />),
    },
    {
      path: relative(paths.loginOidc),
      element: suspended(
        lazyPage(
          () => import('../features/auth/components/oidc-callback-page'),
          'OidcCallbackPage',
        ),
      ),
    },
    {
      path: relative(paths.verify),
      element: suspended(
        lazyPage(() => import('../features/auth/components/verify-page'), 'VerifyPage'),
      ),
    },
    {
      element: suspended(<ShellLayout />),
      children: [
        ...SHELL_ROUTES.map(({ route, element }) => ({
          path: relative(route),
          element: suspendedPage(element),
        })),
        { path: '*', element: suspendedPage(<NotFound />) },
      ],
    },
  ];
}

const legal = (kind: 'TermsPage' | 'PrivacyPage') =>
  suspended(lazyPage(() => import('../features/legal/components/legal-page'), kind));

/**
 * At start-up, signed in (or in the demo): the shell's and the opened page's chunks start loading
 * beside the sign-in check instead of after it (a deep link to /map asked its chunk only once the
 * user was known). The modules are the ones React.lazy loads later, so nothing is loaded twice.
 */
export function preloadShellPage(pathname: string): void {
  const path = pathname.startsWith(`${DEMO_PREFIX}/`)
    ? pathname.slice(DEMO_PREFIX.length)
    : pathname;
  const found = SHELL_ROUTES.find(({ route }) => matchPath(route.path, path) !== null);
  const load = found && pageLoads.get(found.element as object);
  if (!load) return;
  void import('./shell/shell-layout');
  void load();
}

export const routes: RouteObject[] = [
  // Static pages linked from the footer: outside the guard, readable signed out.
  { path: paths.legal.terms.path, element: legal('TermsPage') },
  { path: paths.legal.privacy.path, element: legal('PrivacyPage') },
  {
    path: paths.verifyEmail.path,
    element: suspended(
      lazyPage(() => import('../features/auth/components/verify-email-page'), 'VerifyEmailPage'),
    ),
  },
  {
    path: paths.resetPassword.path,
    element: suspended(
      lazyPage(
        () => import('../features/auth/components/reset-password-page'),
        'ResetPasswordPage',
      ),
    ),
  },
  { path: DEMO_PREFIX, element: <DemoRoot />, children: appTree() },
  { path: paths.root.path, element: <ConsoleRoot />, children: appTree() },
];
