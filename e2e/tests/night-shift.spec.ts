import { auditView, LANGUAGES, useLanguage } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { pressSos, wearerUid } from './live-gateway.js';

/*
 * Issue 36: the night nurse on a 360 px phone. An SOS comes in while she looks at /devices: the wearer in alarm
 * is at the top of the list, and the banner takes her from the alert to confirmed in two taps, the dialog naming
 * whom she confirms. Wearer 1 (佐藤 健太) is pressed and confirmed here, in each language.
 */
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const N = 1;
const NAME = '佐藤 健太';
const TEXT = {
  ja: { type: 'SOS発信', submit: '確認する', confirmOf: `${NAME} のアラートを確認` },
  en: { type: 'SOS', submit: 'Confirm', confirmOf: `Confirm the alert for ${NAME}` },
} as const;

for (const lng of LANGUAGES) {
  test(`${lng} 360x740: SOS -> confirmed in two taps from the banner, the dialog naming the person; the wearer in alarm first on /devices`, async ({
    page,
    request,
  }) => {
    await signIn(page, request, 'org-owner@example.com');
    await useLanguage(page, lng);
    await page.goto('/devices');
    await waitForPage(page);
    await pressSos(request, N);

    // The banner names the newest emergency: who, what, and where.
    const headline = page.getByTestId('alert-popup-headline');
    await expect(headline).toContainText(NAME, { timeout: 30_000 });
    await expect(headline).toContainText(TEXT[lng].type);

    // /devices, alerts first (the default): nobody without an open alert is above the wearer in alarm.
    const rows = page.getByTestId('wearer-row');
    const mine = page.locator(`[data-testid="wearer-row"][data-uid="${wearerUid(N)}"]`);
    await expect(mine.getByTestId('alert-badge').first()).toBeVisible();
    await expect(rows.first().getByTestId('alert-badge').first()).toBeVisible();
    // One read of the list (uid and badge together), retried: other stories' alerts on the shared demo
    // organisation reorder it live, and two separate reads could meet two different orders (CI, 3 Dec).
    await expect(async () => {
      const list = await rows.evaluateAll((els) =>
        els.map((el) => ({
          uid: el.getAttribute('data-uid'),
          alarmed: el.querySelector('[data-testid="alert-badge"]') !== null,
        })),
      );
      const myIndex = list.findIndex((r) => r.uid === wearerUid(N));
      expect(myIndex).toBeGreaterThanOrEqual(0);
      expect(list.slice(0, myIndex).every((r) => r.alarmed)).toBe(true);
    }).toPass({ intervals: [250, 500, 1000], timeout: 10_000 });
    await page.screenshot({ path: test.info().outputPath(`devices-banner-${lng}-360.png`) });
    expect(await auditView(page, `/devices with the banner, ${lng} 360`)).toEqual([]);

    // Tap 1: 確認 on the banner opens the confirm dialog for that alert, naming the person and the alert.
    // (Once the header has stopped growing: the repeating tone's band may arrive just after the banner.)
    // This wearer's 確認 in the banner: the newest alert's, or in the banner's list when another story's SOS came in
    // after it (the demo organisation is shared; CI, 2 Dec).
    const confirmButton = page
      .getByTestId('alert-popup')
      .getByRole('button', { name: TEXT[lng].confirmOf, exact: true })
      .first();
    let last = '';
    await expect(async () => {
      const box = JSON.stringify(await confirmButton.boundingBox());
      const same = box === last;
      last = box;
      expect(same).toBe(true);
    }).toPass({ intervals: [500], timeout: 10_000 });
    const dialog = page.getByTestId('confirm-dialog');
    // Another story's alert arriving re-renders the banner between the stable box and the tap, and the tap
    // lands beside the button (CI, 3 Dec: 13 open alerts on the shared demo organisation): tap again until the
    // dialog opens. A tap that lands opens the dialog, so this never confirms anything twice.
    await expect(async () => {
      if (!(await dialog.isVisible())) await confirmButton.tap();
      await expect(dialog.getByRole('heading')).toContainText(NAME, { timeout: 2_000 });
    }).toPass({ intervals: [500, 1000], timeout: 15_000 });
    await expect(page.getByTestId('confirm-alert-subject')).toContainText(TEXT[lng].type);
    await page.screenshot({ path: test.info().outputPath(`confirm-dialog-${lng}-360.png`) });
    expect(await auditView(page, `confirm dialog, ${lng} 360`)).toEqual([]);

    // Tap 2: confirmed.
    const confirmed = page.waitForResponse(
      (res) => res.url().includes('/v2/alert/confirm') && res.request().method() === 'POST',
    );
    await dialog.getByTestId('confirm-submit').tap();
    expect((await confirmed).ok()).toBe(true);
    await expect(dialog).toBeHidden();
    await expect(mine.getByTestId('alert-badge').filter({ hasText: TEXT[lng].type })).toHaveCount(
      0,
      { timeout: 30_000 },
    );
  });
}
