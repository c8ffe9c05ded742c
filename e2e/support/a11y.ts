import axe, { type AxeResults, type RunOptions } from 'axe-core';
import { expect, type Page } from '@playwright/test';
import { writeStorage, STORAGE_KEYS } from './session.js';

export type Lng = 'ja' | 'en';
export const LANGUAGES: readonly Lng[] = ['ja', 'en'];
/** A desktop and the narrowest phone the console promises (issue 10). */
export const WIDTHS = [1280, 360] as const;
const HEIGHT = 800;

/** WCAG 2.1 A and AA, plus axe's best practices; only critical and serious findings fail. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const FAILING_IMPACTS = new Set(['critical', 'serious']);

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: AXE_TAGS },
  // Only the violations are read: axe then keeps one node per passing or inapplicable rule instead of every
  // node (one story, one run each: its scans took 7.8 s, then 5.6 s with this option alone).
  resultTypes: ['violations'],
};

/**
 * axe-core in the page itself, put there once per document (a width change keeps it): @axe-core/playwright
 * evaluated its 550 kB source twice on every scan. The console has no frames, so the main frame is the page.
 */
async function runAxe(page: Page, within?: string): Promise<AxeResults> {
  // Colours are checked as they end, not halfway through a transition: on a fast machine the scan
  // ran while a button just clicked still faded to its selected colour (sites.spec, 28 Nov), and
  // axe measured a contrast no user reads. Endless animations (a spinner) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => typeof window.axe?.run === 'function'))) {
    await page.evaluate(
      `${axe.source};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`,
    );
  }
  return page.evaluate(([context, options]) => window.axe!.run(context ?? document, options), [
    within ?? null,
    RUN_OPTIONS,
  ] as const);
}

/** One line per failing rule, with the first few offending elements, so a report reads without the trace. */
export async function axeFindings(page: Page, within?: string): Promise<string[]> {
  const results = await runAxe(page, within);
  return results.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .map((v) => {
      const where = v.nodes
        .slice(0, 3)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`,
        )
        .join('; ');
      return `${v.id} [${v.impact}] x${v.nodes.length}: ${where}`;
    });
}

/** How far the page scrolls sideways (0 when it fits). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** The widest elements sticking out of the viewport: names the culprit when the width check fails. */
export async function widestElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = window.innerWidth;
    const out: { name: string; right: number }[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const right = el.getBoundingClientRect().right + window.scrollX;
      if (right > limit + 1) {
        const id = el.getAttribute('data-testid') ?? el.className.toString().slice(0, 60);
        out.push({ name: `${el.tagName.toLowerCase()}[${id}]`, right: Math.round(right) });
      }
    }
    return out
      .sort((a, b) => b.right - a.right)
      .slice(0, 3)
      .map((e) => `${e.name} reaches ${e.right}px`);
  });
}

/** Picks the language before the app starts (the switch stores it under i18next's key). */
export async function useLanguage(page: Page, lng: Lng): Promise<void> {
  await writeStorage(page, { [STORAGE_KEYS.language]: lng });
}

export async function setWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: HEIGHT });
  // The shell swaps the header's menu row for the drawer's button at 1,200 px on the media query's
  // change event, a render after the resize: measured before it, a 360 px page still held the wide
  // row and "scrolled sideways by 46px". Wait for the header of this width, then for a painted frame.
  const header = page.locator('header').filter({ has: page.getByTestId('logo-link') });
  if ((await header.count()) > 0) {
    const button = header.getByTestId('menu-button');
    if (width < 1200) await expect(button).toBeVisible();
    else await expect(button).toHaveCount(0);
  }
  await page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
}

/** Waits until a page has its heading and no spinner of the app or of the page's data. */
export async function settle(page: Page): Promise<void> {
  await expect(page.getByTestId('page-heading').first()).toBeVisible();
  await expect(page.getByTestId('app-spinner')).toHaveCount(0);
  await expect(page.getByTestId('page-loading')).toHaveCount(0);
}

/** Runs axe and the width check on what is on screen now; returns the failures, labelled. */
export async function auditView(page: Page, label: string): Promise<string[]> {
  const failures = (await axeFindings(page)).map((f) => `${label}: ${f}`);
  const overflow = await sidewaysOverflow(page);
  if (overflow > 0) {
    failures.push(
      `${label}: scrolls sideways by ${overflow}px (${(await widestElements(page)).join(', ')})`,
    );
  }
  return failures;
}
