import { receivesAlertPopups } from '@wearable/domain';
import { Watch } from 'lucide-react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { LanguageSwitch } from '../../components/ui/language-switch';
import { useWallMonitorSetting } from '../../features/alerts';
import { useAutoLogout, useLogout } from '../../features/auth';
import { DemoAccountRibbon, useSetupPending } from '../../features/setup';
import { TermsModal } from '../../features/terms/components/terms-modal';
import { AppLink, useIsDemo } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { useMediaQuery } from '../../lib/use-media-query';
import { useScrollPaddingBelow } from '../../lib/use-scroll-padding';
import { LiveMonitoring } from '../live-monitoring';
import { homeFor } from '../route-guard';
import { AppToaster } from './app-toaster';
import { MainMenu } from './main-menu';
import { MenuDrawer } from './menu-drawer';
import { SettingsNav } from './settings-nav';
import { SiteFooter } from './site-footer';
import { UserMenu } from './user-menu';

/** From this width the main menu is a row in the header; below it, a drawer. */
const WIDE_HEADER_PX = 1200;

/** Header, menu, footer around every signed-in page (and the demo). */
export function ShellLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const demo = useIsDemo();
  const logout = useLogout();
  // One main menu in the page at a time: in the header when wide, in the drawer when narrow. From
  // 1,200 px: the row of up to six entries (the setup checklist and /map included), the language and
  // the user fit there in English, on one line each; at 1,024 px the six English entries ran under
  // the language switch.
  const wide = useMediaQuery(`(min-width: ${WIDE_HEADER_PX}px)`);
  const header = useScrollPaddingBelow<HTMLElement>();
  const [wallMonitorOn, setWallMonitor] = useWallMonitorSetting();
  const setupPending = useSetupPending(demo ? null : user);
  useAutoLogout(demo ? null : (user?.role ?? null), logout);
  if (user === null) return null;

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('shell.skipToContent')}
      </a>
      {demo && (
        <p
          data-testid="demo-banner"
          role="note"
          className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-900"
        >
          <span data-testid="demo-banner-text">{t('shell.demoBanner')}</span>{' '}
          {/* A real organisation's setup, behind sign-in, in a new tab like the terms: the demo stays open and every
              link inside it keeps its /demo prefix (not an AppLink, which would add it). */}
          <a
            href="/setup"
            target="_blank"
            rel="noopener noreferrer"
            data-testid="demo-set-up-your-own"
            className={`font-medium whitespace-nowrap underline ${focusRing}`}
          >
            {t('shell.demoSetUpYourOwn')}
            <span className="sr-only">{t('footer.newTab')}</span>
          </a>
        </p>
      )}
      <header ref={header} className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4">
          {!wide && <MenuDrawer role={user.role} setupPending={setupPending} />}
          <AppLink
            to={homeFor(user.role)}
            data-testid="logo-link"
            className={`flex items-center gap-2 rounded-md font-semibold text-teal-800 ${focusRing}`}
          >
            <Watch aria-hidden="true" className="size-5" />
            <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">
              {t('shell.productName')}
            </span>
          </AppLink>
          {wide && (
            <div className="ml-2 min-w-0">
              <MainMenu role={user.role} layout="row" setupPending={setupPending} />
            </div>
          )}
          <div className="ml-auto flex items-center gap-2">
            <LanguageSwitch />
            <UserMenu
              name={user.name}
              onLogout={() => void logout()}
              wallMonitor={
                !demo && receivesAlertPopups(user.role)
                  ? { on: wallMonitorOn, set: setWallMonitor }
                  : undefined
              }
            />
          </div>
        </div>
        {/* The alert popup is a band of the sticky header: it never covers the page's confirm buttons. */}
        {!demo && <LiveMonitoring role={user.role} clientId={user.mediromOrganizationId ?? null} />}
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        <SettingsNav role={user.role} />
        <Outlet />
      </main>
      <SiteFooter />
      {/* At the bottom: it appears once the server answers, and must not move the page under the pointer. */}
      <DemoAccountRibbon enabled={!demo} />
      {!demo && <TermsModal user={user} />}
      <AppToaster />
    </div>
  );
}
