import { sidewaysOverflow } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';
import { DEMO_CLIENT, pressSos, sendReadings, wearerUid } from './live-gateway.js';

/*
 * A night-shift worker on a 360 px phone: each wearer is a card that says who, their open alerts, heart rate, wear
 * and connection without scrolling sideways, and the confirm button is a thumb-sized target on screen.
 * Wearer 12 is this file's own (no other test touches it).
 */
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const N = 12;
const MIN_TARGET_PX = 44;

async function expectInsideViewport(
  page: Page,
  selector: ReturnType<Page['locator']>,
): Promise<void> {
  const box = await selector.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('360 px: a wearer card shows who, the SOS, heart rate, wear and connection; confirm is a 44 px target', async ({
  page,
  request,
}) => {
  await sendReadings(request, N, { heartRate: 104, skinTemperature: 35.4, battery: 60 });
  await pressSos(request, N);
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/devices');
  await waitForPage(page);

  const card = page.locator(`[data-testid="wearer-row"][data-uid="${wearerUid(N)}"]`);
  await expect(card.getByTestId('alert-badge').filter({ hasText: 'SOS発信' })).toBeVisible();
  await expect(card.getByTestId('live-heart-rate')).toHaveText(/10[4-6]/);
  await expect(card).toContainText('装着中');
  await expect(card).toContainText('オンライン');
  const name = (await card.getByRole('link').textContent()) ?? '';
  expect(name).not.toBe('');
  for (const part of [
    card.getByRole('link'),
    card.getByTestId('alert-badge').first(),
    card.getByTestId('live-heart-rate'),
  ]) {
    await expectInsideViewport(page, part);
  }
  expect(await sidewaysOverflow(page)).toBe(0);

  // The wearer page: the alert is confirmable there too, on screen and thumb-sized.
  await card.getByRole('link').click();
  await waitForPage(page);
  await expect(page).toHaveURL(new RegExp(`/devices/${DEMO_CLIENT}/${wearerUid(N)}$`));
  const onWearer = page.getByTestId('alert-confirm').first();
  await expect(onWearer).toBeVisible();
  await expectInsideViewport(page, onWearer);
  expect((await onWearer.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
  expect(await sidewaysOverflow(page)).toBe(0);

  // The alert history: the card names the wearer; confirming it works with the button on screen.
  await page.goto('/alert-histories');
  await waitForPage(page);
  const row = page
    .getByTestId('alert-row')
    .filter({ hasText: name })
    .filter({ has: page.getByTestId('alert-confirm') })
    .first();
  const confirm = row.getByTestId('alert-confirm');
  await expect(confirm).toBeVisible();
  await expectInsideViewport(page, confirm);
  expect((await confirm.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
  expect(await sidewaysOverflow(page)).toBe(0);
  const id = await row.getAttribute('data-alert-id');
  await confirm.tap();
  // The confirm dialog's button is on screen and thumb-sized too.
  const submit = page.getByTestId('confirm-submit');
  await expect(submit).toBeVisible();
  await expectInsideViewport(page, submit);
  expect((await submit.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
  await submit.tap();
  await expect(page.locator(`[data-alert-id="${id}"]`).getByTestId('alert-status')).toContainText(
    '確認済み',
  );
});
