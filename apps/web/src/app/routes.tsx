import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { AppSpinner } from './app-spinner';
import { DemoRoot, ConsoleRoot } from './guards';

/** One chunk per page (React.lazy), so /login loads only what it shows. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(async () => {
    const page: ComponentType = (await load())[name];
    return { default: page };
  });
  return <Page />;
}

const suspended = (node: ReactNode) => <Suspense fallback={<AppSpinner />}>{node}</Suspense>;
/** Inside the shell the header stays; only the page area waits. */
const suspendedPage = (node: ReactNode) => <Suspense fallback={<AppSpinner fullScreen={false} />}>{node}</Suspense>;

const ShellLayout = lazy(async () => ({ default: (await import('./shell/shell-layout')).ShellLayout }));
const Placeholder = lazy(async () => ({ default: (await import('./placeholder-page')).PlaceholderPage }));
const placeholder = (titleKey: string) => <Placeholder titleKey={titleKey} />;

/** Pages inside the shell, paths relative to / or /demo (spec section 2, in its order). */
export const SHELL_ROUTES: { path: string; element: ReactNode }[] = [
  { path: '_app', element: placeholder('pages.app') },
  { path: 'select-device', element: lazyPage(() => import('../features/user/components/select-device-page'), 'SelectDevicePage') },
  { path: 'user/record', element: lazyPage(() => import('./pages/personal-record-page'), 'PersonalRecordPage') },
  { path: 'user/info', element: lazyPage(() => import('./pages/user-info-with-sign-in'), 'UserInfoWithSignInPage') },
  { path: 'user/settings/alert', element: lazyPage(() => import('./pages/personal-alert-settings-page'), 'PersonalAlertSettingsPage') },
  { path: 'organization', element: lazyPage(() => import('../features/organizations/components/organizations-page'), 'OrganizationsPage') },
  { path: 'organization/:id', element: placeholder('pages.organizationDetail') },
  { path: 'organization/:id/member', element: placeholder('pages.organizationMembers') },
  { path: 'organization/:id/:gatewayId', element: placeholder('pages.organizationGateway') },
  { path: 'devices', element: lazyPage(() => import('./pages/devices-live-page'), 'DevicesLivePage') },
  { path: 'devices/alert-settings', element: placeholder('pages.devicesAlertSettings') },
  { path: 'devices/:clientId/:uid', element: lazyPage(() => import('./pages/wearer-detail-page'), 'WearerDetailPage') },
  { path: 'devices/:clientId/:uid/alert', element: placeholder('pages.deviceAlert') },
  { path: 'devices/:clientId/:uid/alert_histories', element: placeholder('pages.deviceAlertHistories') },
  { path: 'devices/:clientId/:uid/config', element: placeholder('pages.deviceConfig') },
  { path: 'devices/:clientId/:uid/member', element: placeholder('pages.deviceMember') },
  { path: 'devices/:clientId/:uid/device_setting', element: placeholder('pages.deviceSetting') },
  { path: 'alert-histories', element: lazyPage(() => import('../features/alerts/components/alert-histories-page'), 'AlertHistoriesPage') },
  { path: 'gateways', element: placeholder('pages.gateways') },
  { path: 'gateways/:organizationId/:gatewayId', element: placeholder('pages.gatewayDetail') },
  { path: 'groups', element: placeholder('pages.groups') },
  { path: 'groups/:groupId/alert-notice-settings', element: placeholder('pages.groupAlertNoticeSettings') },
  { path: 'groups/:groupId/devices', element: placeholder('pages.groupDevices') },
  { path: 'groups/:groupId/devices/alert-settings', element: placeholder('pages.groupDevicesAlertSettings') },
  { path: 'groups/:groupId/gateways', element: placeholder('pages.groupGateways') },
  { path: 'members', element: placeholder('pages.members') },
  { path: 'settings', element: placeholder('pages.settings') },
  { path: 'settings/admins', element: lazyPage(() => import('../features/members/components/admins-page'), 'AdminsPage') },
  { path: 'settings/gateways', element: placeholder('pages.settingsGateways') },
  { path: 'settings/groups', element: placeholder('pages.settingsGroups') },
  { path: 'users', element: placeholder('pages.users') },
  { path: '*', element: placeholder('pages.notFound') },
];

/** The tree under one root: sign-in pages, then the shell. Mounted at / and at /demo. */
function appTree(): RouteObject[] {
  return [
    { index: true, element: null }, // the guard always redirects /
    { path: 'login', element: suspended(lazyPage(() => import('../features/auth/components/login-page'), 'LoginPage')) },
    { path: 'login/oidc', element: suspended(lazyPage(() => import('../features/auth/components/oidc-callback-page'), 'OidcCallbackPage')) },
    { path: 'verify', element: suspended(lazyPage(() => import('../features/auth/components/verify-page'), 'VerifyPage')) },
    { element: suspended(<ShellLayout />), children: SHELL_ROUTES.map(({ path, element }) => ({ path, element: suspendedPage(element) })) },
  ];
}

const legal = (kind: 'TermsPage' | 'PrivacyPage') =>
  suspended(lazyPage(() => import('../features/legal/components/legal-page'), kind));

export const routes: RouteObject[] = [
  // Static pages linked from the footer: outside the guard, readable signed out.
  { path: '/terms', element: legal('TermsPage') },
  { path: '/privacy', element: legal('PrivacyPage') },
  { path: '/demo', element: <DemoRoot />, children: appTree() },
  { path: '/', element: <ConsoleRoot />, children: appTree() },
];
