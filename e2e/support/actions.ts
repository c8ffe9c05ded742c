import { expect, type Locator } from '@playwright/test';

/**
 * Clicks `trigger` until `isDone` says so. The demo organisation's pages take live alerts from the
 * stories running beside this one: a band arriving in the sticky header moves the page down
 * between the press and the release, and the click lands on nothing (seen in CI on /devices and
 * /organization). A click that did land is not repeated: `isDone` is asked first.
 */
export async function clickUntil(trigger: Locator, isDone: () => Promise<boolean>): Promise<void> {
  await expect(async () => {
    if (!(await isDone())) await trigger.click({ timeout: 5_000 });
    await expect.poll(isDone, { timeout: 2_000 }).toBe(true);
  }).toPass({ timeout: 30_000, intervals: [250, 500, 1_000] });
}

/** Opens a dialog (or any view) by its trigger: see `clickUntil`. */
export async function openWith(trigger: Locator, opened: Locator): Promise<void> {
  await clickUntil(trigger, () => opened.isVisible());
}
