import { useTranslation } from 'react-i18next';
import { useDemoStatus } from '../../../lib/use-demo-status';

/**
 * A signed-in demo account (its password is published, issue 35) says so on every page. The
 * sign-in-free /demo has its own banner (shell-layout).
 *
 * It is known only once the server answers, so it is a bar fixed at the bottom of the screen (clicks pass through
 * it) with a spacer of its height at the end of the page (neither is printed: a printed report is the report): shown at the top, it pushed the whole page down under the
 * pointer a moment after load, and a click meant for one control landed on another.
 */
export function DemoAccountRibbon({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const status = useDemoStatus(enabled);
  if (!enabled || status.data?.signedInAsDemo !== true) return null;
  return (
    <>
      <div aria-hidden="true" data-print="hide" className="h-20 sm:h-10" />
      <p
        data-testid="demo-account-ribbon"
        data-print="hide"
        role="note"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-20 flex min-h-16 items-center justify-center bg-amber-200 px-4 py-2 text-center text-sm font-medium text-amber-950 shadow sm:min-h-10"
      >
        {t('shell.demoAccountRibbon')}
      </p>
    </>
  );
}
