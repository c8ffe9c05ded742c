import {
  auditView,
  LANGUAGES,
  setWidth,
  settle,
  sidewaysOverflow,
  useLanguage,
  widestElements,
  WIDTHS,
  type Lng,
} from '../support/a11y.js';
import { roleCase, type Role } from '../support/roles.js';
import { signIn, urlWithPath } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';
import { DEMO_CLIENT, pressSos, sendReadings, wearerUid } from './live-gateway.js';

/*
 * Every route of the specification (section 2), opened by a role that may open it, in both languages at 1,280 and
 * 360 px: zero critical or serious axe findings (WCAG 2.1 A/AA and best practices) and no sideways scrolling.
 * Whatever a route renders today (a placeholder or the real page) is what is checked.
 */
type Opener = Role | 'SIGNED_OUT' | 'DEMO';

const ORG = DEMO_CLIENT;
const GROUP = 'demo-group-1';
const GATEWAY = 'demo-gateway-1';
const WEARER = `/devices/${ORG}/${wearerUid(1)}`;
// The monthly report of this month (a UTC month is never ahead of Tokyo's).
const MONTH = new Date().toISOString().slice(0, 7);

const ROUTES: readonly { path: string; opener: Opener }[] = [
  { path: '/login', opener: 'SIGNED_OUT' },
  { path: '/verify', opener: 'SIGNED_OUT' },
  // Without a fragment it shows the refusal text (what a failed social sign-in looks like).
  { path: '/login/oidc', opener: 'SIGNED_OUT' },
  { path: '/terms', opener: 'SIGNED_OUT' },
  { path: '/privacy', opener: 'SIGNED_OUT' },
  // Without a token it shows the unknown-link page (beyond the spec: the email-change link of /user/info).
  { path: '/verify-email', opener: 'SIGNED_OUT' },
  { path: '/demo/devices', opener: 'DEMO' },
  { path: '/demo/alert-histories', opener: 'DEMO' },
  { path: '/select-device', opener: 'PERSONAL' },
  { path: '/user/record', opener: 'PERSONAL' },
  { path: '/user/info', opener: 'PERSONAL' },
  { path: '/user/info', opener: 'ORGANIZATION_OWNER' },
  { path: '/user/settings/alert', opener: 'PERSONAL' },
  { path: `/user/record?report=${MONTH}`, opener: 'PERSONAL' },
  { path: '/user/record', opener: 'PERSONAL_SELF' },
  { path: '/organization', opener: 'ALL_OWNER' },
  { path: `/organization/${ORG}`, opener: 'ALL_OWNER' },
  { path: `/organization/${ORG}/member`, opener: 'ALL_OWNER' },
  { path: `/organization/${ORG}/${GATEWAY}`, opener: 'ALL_OWNER' },
  { path: '/users', opener: 'ALL_OWNER' },
  { path: '/gateways', opener: 'ALL_OWNER' },
  { path: `/gateways/${ORG}/${GATEWAY}`, opener: 'ALL_OWNER' },
  { path: '/_app', opener: 'ORGANIZATION_OWNER' },
  { path: '/devices', opener: 'ORGANIZATION_OWNER' },
  { path: '/devices/alert-settings', opener: 'ORGANIZATION_OWNER' },
  // Beyond the spec's list: bracelets and wearers by CSV (issue 35).
  { path: '/devices/import', opener: 'ORGANIZATION_OWNER' },
  { path: WEARER, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/alert`, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/alert_histories`, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/config`, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/member`, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/device_setting`, opener: 'ORGANIZATION_OWNER' },
  { path: `${WEARER}/report?month=${MONTH}`, opener: 'ORGANIZATION_OWNER' },
  { path: '/alert-histories', opener: 'ORGANIZATION_OWNER' },
  // Beyond the spec's list: the shift handover (issue 8).
  { path: '/alert-histories/handover', opener: 'ORGANIZATION_OWNER' },
  { path: '/groups', opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/alert-notice-settings`, opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/devices`, opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/devices/alert-settings`, opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/gateways`, opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/heat-rule`, opener: 'ORGANIZATION_OWNER' },
  { path: `/groups/${GROUP}/round`, opener: 'ORGANIZATION_OWNER' },
  { path: '/members', opener: 'ORGANIZATION_OWNER' },
  { path: '/settings', opener: 'ORGANIZATION_OWNER' },
  { path: '/settings/admins', opener: 'ORGANIZATION_OWNER' },
  { path: '/settings/gateways', opener: 'ORGANIZATION_OWNER' },
  { path: '/settings/groups', opener: 'ORGANIZATION_OWNER' },
  // Beyond the spec's list: the organisation's webhooks (issue 19).
  { path: '/settings/webhooks', opener: 'ORGANIZATION_OWNER' },
  { path: '/gateways', opener: 'ORGANIZATION_OWNER' },
  { path: `/gateways/${ORG}/${GATEWAY}`, opener: 'ORGANIZATION_OWNER' },
  { path: '/no-such-page', opener: 'ORGANIZATION_OWNER' },
  { path: '/devices', opener: 'ORGANIZATION_GROUP' },
  { path: `/groups/${GROUP}/devices`, opener: 'ORGANIZATION_GROUP' },
  { path: '/alert-histories', opener: 'ORGANIZATION_GROUP' },
];

const STAFF = new Set<Opener>([
  'ALL_OWNER',
  'ALL_GENERAL',
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
]);

const NARROWEST = 320;

/**
 * Routes per test: small enough that the two workers share the load and one test stays well inside its time on a
 * busy machine (each route is opened at three widths with axe twice), large enough to reuse one sign-in.
 */
const CHUNK = 3;
/** Time per route on a loaded 2-core machine (about 25 s seen at load 35), plus the sign-in. */
const PER_ROUTE_MS = 50_000;

async function start(
  page: Page,
  request: Parameters<typeof signIn>[1],
  opener: Opener,
  lng: Lng,
): Promise<void> {
  if (opener !== 'SIGNED_OUT' && opener !== 'DEMO') {
    await signIn(page, request, roleCase(opener).email, { selectDevice: opener === 'PERSONAL' });
  }
  await useLanguage(page, lng);
}

/** The shell's overlays, checked once per test on the first page that has the shell. */
async function auditOverlays(page: Page, width: number, label: string): Promise<string[]> {
  if (width < 768) {
    await page.getByTestId('menu-button').click();
    await expect(page.getByTestId('main-menu')).toBeVisible();
    const found = await auditView(page, `${label} (menu drawer open)`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('main-menu')).toBeHidden();
    return found;
  }
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('logout')).toBeVisible();
  const found = await auditView(page, `${label} (user menu open)`);
  await page.keyboard.press('Escape');
  return found;
}

/*
 * Live pages checked empty prove little: wearers 10 and 11 (no other test uses them) get readings, one of them not
 * worn, and 10 an open SOS, so the lists show every kind of cell (badges, values, relative times).
 */
test.beforeAll(async ({ request }) => {
  await sendReadings(request, 10, { heartRate: 96, skinTemperature: 35.1, battery: 12 });
  await sendReadings(request, 11, {
    heartRate: 70,
    skinTemperature: 33.0,
    battery: 80,
    worn: false,
  });
  await pressSos(request, 10);
});

const openers = [...new Set(ROUTES.map((r) => r.opener))];
for (const opener of openers) {
  const paths = ROUTES.filter((r) => r.opener === opener).map((r) => r.path);
  for (let first = 0; first < paths.length; first += CHUNK) {
    const chunk = paths.slice(first, first + CHUNK);
    for (const lng of LANGUAGES) {
      test(`axe and width as ${opener} in ${lng}: ${chunk.join(' ')}`, async ({
        page,
        request,
      }) => {
        test.setTimeout(30_000 + PER_ROUTE_MS * chunk.length);
        await start(page, request, opener, lng);
        const failures: string[] = [];
        const overlaysDone = new Set<number>();
        for (const path of chunk) {
          await setWidth(page, WIDTHS[0]);
          await page.goto(path);
          await expect(page, `${opener} may open ${path}`).toHaveURL(urlWithPath(path));
          for (const width of [...WIDTHS, NARROWEST]) {
            await setWidth(page, width);
            await settle(page);
            const label = `${path} ${lng} ${width}px`;
            if (width === NARROWEST) {
              // The promise is no sideways scrolling from 320 px up; axe has nothing new to say at this size.
              const overflow = await sidewaysOverflow(page);
              if (overflow > 0)
                failures.push(
                  `${label}: scrolls sideways by ${overflow}px (${(await widestElements(page)).join(', ')})`,
                );
              continue;
            }
            failures.push(...(await auditView(page, label)));
            const hasShell = (await page.getByTestId('user-menu').count()) > 0;
            if (hasShell && !overlaysDone.has(width)) {
              // Staff see the alert popup (beforeAll left an SOS open): it is part of what is checked.
              if (STAFF.has(opener)) await expect(page.getByTestId('alert-popup')).toBeVisible();
              overlaysDone.add(width);
              failures.push(...(await auditOverlays(page, width, label)));
            }
          }
        }
        expect(failures, failures.join('\n')).toEqual([]);
      });
    }
  }
}
