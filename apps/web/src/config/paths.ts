import { can, holds, isStaffRole, PLATFORM, type Permission, type Role } from '@wearable/domain';

/**
 * Who may open a route. The guard (app/route-guard.ts) and the menus read it; the server still
 * decides what each page may load.
 * - public: outside the guard (footer links), signed in or not;
 * - signedOut: the sign-in pages, sent home once signed in;
 * - entry: `/`, always sent on to a home page;
 * - account: the signed-in person's own account, every role (`self:read`);
 * - personal: only the named personal roles (spec, "Routing guard");
 * - staff: the five staff roles holding `permission` (domain table); `platform` pages span every
 *   organisation, so the permission must reach the platform too.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'signedOut' }
  | { kind: 'entry' }
  | { kind: 'account' }
  | { kind: 'personal'; roles: readonly ('PERSONAL' | 'PERSONAL_SELF')[] }
  | { kind: 'staff'; permission: Permission; platform?: true };

/** `{ clientId: string; uid: string }` for '/devices/:clientId/:uid'. */
export type PathParams<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? { [K in Param | keyof PathParams<`/${Rest}`>]: string }
  : P extends `${string}:${infer Param}`
    ? { [K in Param]: string }
    : Record<never, never>;

export interface AppRoute<P extends string = string> {
  /** The pattern the router matches, from the root (no /demo prefix). */
  readonly path: P;
  /** Page title, an i18n key of the common namespace. */
  readonly titleKey: string;
  readonly access: RouteAccess;
  /** The link to this page; ids are URL-encoded. Inside /demo, AppLink adds the prefix. */
  build(...params: keyof PathParams<P> extends never ? [] : [PathParams<P>]): string;
}

function route<P extends string>(path: P, titleKey: string, access: RouteAccess): AppRoute<P> {
  return {
    path,
    titleKey,
    access,
    build: (...args) => {
      const params = (args[0] ?? {}) as Record<string, string>;
      return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    },
  };
}

const staff = (permission: Permission, platform?: true): RouteAccess =>
  platform ? { kind: 'staff', permission, platform } : { kind: 'staff', permission };
const personal = (...roles: ('PERSONAL' | 'PERSONAL_SELF')[]): RouteAccess => ({
  kind: 'personal',
  roles,
});
const BOTH_PERSONAL = ['PERSONAL', 'PERSONAL_SELF'] as const;

/**
 * Every route of the console (spec section 2), in the spec's order, plus the OpenID sign-in return
 * and the footer's legal pages.
 */
export const paths = {
  app: route('/_app', 'pages.app', staff('self:read')),
  login: route('/login', 'login.title', { kind: 'signedOut' }),
  /** Beyond the spec: where the OpenID provider's sign-in returns (a one-time code in the fragment). */
  loginOidc: route('/login/oidc', 'oidc.title', { kind: 'signedOut' }),
  verify: route('/verify', 'verify.title', { kind: 'signedOut' }),
  root: route('/', 'shell.productName', { kind: 'entry' }),
  selectDevice: route('/select-device', 'pages.selectDevice', personal('PERSONAL')),
  user: {
    record: route('/user/record', 'pages.userRecord', personal(...BOTH_PERSONAL)),
    // Staff too: two-step sign-in is turned on here (issue 6).
    info: route('/user/info', 'pages.userInfo', { kind: 'account' }),
    alertSetting: route(
      '/user/settings/alert',
      'pages.userAlertSetting',
      personal(...BOTH_PERSONAL),
    ),
  },
  organizations: {
    list: route('/organization', 'pages.organizations', staff('organization:read', true)),
    detail: route('/organization/:id', 'pages.organizationDetail', staff('organization:read')),
    gateway: route(
      '/organization/:id/:gatewayId',
      'pages.organizationGateway',
      staff('gateway:read'),
    ),
    members: route('/organization/:id/member', 'pages.organizationMembers', staff('member:read')),
  },
  devices: {
    list: route('/devices', 'pages.devices', staff('wearer:read')),
    /** Beyond the spec: bracelets and wearers by CSV (issue 35 item 2). */
    import: route('/devices/import', 'pages.devicesImport', staff('wearer:manage')),
    alertSettings: route(
      '/devices/alert-settings',
      'pages.devicesAlertSettings',
      staff('alertSettings:read'),
    ),
  },
  device: {
    detail: route('/devices/:clientId/:uid', 'pages.deviceDetail', staff('wearer:read')),
    alert: route('/devices/:clientId/:uid/alert', 'pages.deviceAlert', staff('alert:read')),
    alertHistories: route(
      '/devices/:clientId/:uid/alert_histories',
      'pages.deviceAlertHistories',
      staff('alert:read'),
    ),
    config: route('/devices/:clientId/:uid/config', 'pages.deviceConfig', staff('bracelet:read')),
    member: route('/devices/:clientId/:uid/member', 'pages.deviceMember', staff('wearer:read')),
    setting: route(
      '/devices/:clientId/:uid/device_setting',
      'pages.deviceSetting',
      staff('bracelet:read'),
    ),
    /** Beyond the spec's list: the wearer's monthly report (?month=YYYY-MM; personal users see it on /user/record?report=). */
    report: route('/devices/:clientId/:uid/report', 'pages.deviceReport', staff('wearer:read')),
  },
  alertHistories: route('/alert-histories', 'pages.alertHistories', staff('alert:read')),
  /**
   * Beyond the spec (issue 36 item 4): an alert SMS's short link (PUBLIC_URL/a/<code>); after sign-in it
   * goes on to the alert's wearer's alerts. The code is opaque and grants nothing (the server answers
   * only someone who may see the alert). domain alertLinkPath builds the same path.
   */
  alertLink: route('/a/:code', 'pages.alertLink', staff('alert:read')),
  /**
   * Beyond the spec (issue 38 item 1): where a push notification's 確認 lands; it confirms the alert with the
   * person's own session (after sign-in when it has ended). The service worker builds the same path (sw/notice.ts).
   */
  alertConfirm: route('/alerts/:alertId/confirm', 'pages.alertConfirm', staff('alert:confirm')),
  /** Beyond the spec: where everyone is now, on the site plans and in a list (issue 17). */
  map: route('/map', 'pages.map', staff('place:read')),
  /** Beyond the spec's list: the shift handover (open alerts, snoozes, confirmations of the last hours), linked from /alert-histories. */
  alertHandover: route('/alert-histories/handover', 'pages.alertHandover', staff('alert:handover')),
  gateways: {
    list: route('/gateways', 'pages.gateways', staff('gateway:read')),
    detail: route(
      '/gateways/:organizationId/:gatewayId',
      'pages.gatewayDetail',
      staff('gateway:read'),
    ),
  },
  groups: {
    list: route('/groups', 'pages.groups', staff('group:read')),
    alertNoticeSettings: route(
      '/groups/:groupId/alert-notice-settings',
      'pages.groupAlertNoticeSettings',
      staff('noticeSettings:read'),
    ),
    /** Japan's 2025 heat rule for one site: written procedure and hospital, named contacts, monthly report (A4). */
    heatRule: route('/groups/:groupId/heat-rule', 'pages.groupHeatRule', staff('group:read')),
    nightRound: route('/groups/:groupId/round', 'pages.groupNightRound', staff('group:read')),
    devices: route('/groups/:groupId/devices', 'pages.groupDevices', staff('wearer:read')),
    devicesAlertSettings: route(
      '/groups/:groupId/devices/alert-settings',
      'pages.groupDevicesAlertSettings',
      staff('alertSettings:read'),
    ),
    gateways: route('/groups/:groupId/gateways', 'pages.groupGateways', staff('gateway:read')),
  },
  members: route('/members', 'pages.members', staff('wearer:read')),
  /**
   * Beyond the spec (issue 35): a new organisation's setup checklist. The signed-in person's own
   * organisation, or `?clientId=` for platform staff (from /organization).
   */
  setup: route('/setup', 'pages.setup', staff('organization:read')),
  settings: {
    home: route('/settings', 'pages.settings', staff('organization:read')),
    admins: route('/settings/admins', 'pages.settingsAdmins', staff('member:read')),
    gateways: route('/settings/gateways', 'pages.settingsGateways', staff('gateway:read')),
    groups: route('/settings/groups', 'pages.settingsGroups', staff('group:read')),
    /** Beyond the spec: the organisation's webhook endpoints and delivery logs (issue 19). */
    webhooks: route('/settings/webhooks', 'pages.settingsWebhooks', staff('webhook:read')),
    /** Beyond the spec: Slack, Teams and LINE WORKS as recipients of alerts (issue 38 item 2). */
    chatChannels: route(
      '/settings/chat-channels',
      'pages.settingsChatChannels',
      staff('chatChannel:read'),
    ),
    /** Sites, their plans and where gateways are placed on them (issue 17). */
    sites: route('/settings/sites', 'pages.settingsSites', staff('site:read')),
  },
  users: route('/users', 'pages.users', staff('user:lookup', true)),
  legal: {
    terms: route('/terms', 'legal.terms.title', { kind: 'public' }),
    privacy: route('/privacy', 'legal.privacy.title', { kind: 'public' }),
  },
  /** The link mailed to a new address from /user/info (beyond the specification): signed in or out. */
  verifyEmail: route('/verify-email', 'verifyEmail.title', { kind: 'public' }),
  /** The link of "パスワードを忘れた場合" (beyond the specification, issue 35): signed in or out. */
  resetPassword: route('/reset-password', 'passwordReset.title', { kind: 'public' }),
} as const;

type Tree = AppRoute | { readonly [key: string]: Tree };
const isRoute = (node: Tree): node is AppRoute => typeof (node as AppRoute).build === 'function';
const flatten = (node: Tree): AppRoute[] =>
  isRoute(node) ? [node] : Object.values(node).flatMap(flatten);

/** The table as a list, in declaration order. */
export const ALL_ROUTES: readonly AppRoute[] = flatten(paths);

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * The route a concrete path (no /demo prefix, no query) belongs to, or null for an unknown page.
 * A fixed segment beats a parameter: /organization/o1/member is the members page, not a gateway.
 */
export function routeOf(pathname: string): AppRoute | null {
  const actual = segments(pathname);
  let best: { route: AppRoute; fixed: number } | null = null;
  for (const candidate of ALL_ROUTES) {
    const pattern = segments(candidate.path);
    if (pattern.length !== actual.length) continue;
    let fixed = 0;
    const fits = pattern.every((part, i) => {
      if (part.startsWith(':')) return (actual[i] ?? '') !== '';
      fixed += 1;
      return part === actual[i];
    });
    if (fits && (best === null || fixed > best.fixed)) best = { route: candidate, fixed };
  }
  return best?.route ?? null;
}

/**
 * Whether a signed-in role may open a route: the guard sends everyone else home, the menus show
 * only these. Reaching the platform depends on the role alone (scopeOf), hence the bare actor.
 */
export function mayOpen(route: AppRoute, role: Role): boolean {
  const access = route.access;
  switch (access.kind) {
    case 'public':
      return true;
    case 'signedOut':
    case 'entry':
      return false;
    case 'account':
      return holds({ role }, 'self:read');
    case 'personal':
      return (access.roles as readonly Role[]).includes(role);
    case 'staff': {
      if (!isStaffRole(role) || !holds({ role }, access.permission)) return false;
      const actor = {
        uid: '',
        role,
        organizationId: null,
        managedGroupIds: [],
        linkedWearerIds: [],
      };
      return access.platform !== true || can(actor, access.permission, PLATFORM);
    }
  }
}
