import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** React Router keeps its position in the history entry: 0 on the page the browser loaded, 1+ after a link. */
function arrivedByInAppNavigation(): boolean {
  const state: unknown = window.history.state;
  return (
    typeof state === 'object' &&
    state !== null &&
    'idx' in state &&
    typeof state.idx === 'number' &&
    state.idx > 0
  );
}

/**
 * For a page's <h1>: names the tab after it ("<heading> | <product>", so every route has its own title in the reader's
 * language) and, when the page was reached through the app rather than loaded, moves focus to it so a screen reader
 * announces the new page instead of staying on the old link.
 */
export function usePageHeading<T extends HTMLElement>() {
  const { t } = useTranslation();
  const ref = useRef<T>(null);
  const product = t('shell.productName');

  useEffect(() => {
    const heading = ref.current;
    if (heading !== null && arrivedByInAppNavigation()) heading.focus({ preventScroll: false });
  }, []);

  // Every render: the heading's text may change (a wearer's name arrives, the language switches).
  useEffect(() => {
    const text = ref.current?.textContent?.trim() ?? '';
    const title = text === '' || text === product ? product : `${text} | ${product}`;
    if (document.title !== title) document.title = title;
  });
  return ref;
}

/** The page's heading: where focus returns after an action whose control goes away (a batch confirm). */
export function pageHeadingElement(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-testid="page-heading"]');
}

/** The page's one <h1>; e2e tests find it by its test id. */
export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const ref = usePageHeading<HTMLHeadingElement>();
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1
        ref={ref}
        tabIndex={-1}
        data-testid="page-heading"
        className="text-xl font-semibold text-slate-900 focus:outline-none"
      >
        {children}
      </h1>
      {actions}
    </div>
  );
}
