import { auditView, axeFindings } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { pressSos } from './live-gateway.js';

test("/alert-histories: confirming with a reason and a note shows in the alert's timeline (raised, confirmed with who, reason and note, closed), by keyboard, ja and en, at 360 px", async ({
  page,
  request,
}) => {
  await signIn(page, request, 'org-general@example.com');
  await page.goto('/alert-histories');
  await waitForPage(page);
  await page.getByTestId('filter-type').selectOption('SOS_CALL');

  await pressSos(request, 11);
  const ours = page
    .locator('[data-testid="alert-row"]')
    .filter({ has: page.getByTestId('alert-confirm') })
    .filter({ hasText: 'SOSボタンが押されました' });
  await expect(ours.first()).toBeVisible();
  const alertId = await ours.first().getAttribute('data-alert-id');
  const mine = page.locator(`[data-testid="alert-row"][data-alert-id="${alertId}"]`);

  await mine.getByTestId('alert-confirm').click();
  const confirm = page.getByRole('dialog');
  await confirm.getByLabel('理由').selectOption('TRANSFERRED_TO_HOSPITAL');
  await confirm.getByLabel('メモ').fill('救急搬送、付き添いあり');
  await confirm.getByTestId('confirm-submit').click();
  await expect(mine.getByTestId('alert-confirm-reason')).toHaveText('病院へ搬送');
  // The success toast's text reads at 4.5:1 on its tint (hovered, so it stays while axe looks).
  const toast = page.locator('[data-sonner-toast][data-type="success"]');
  await toast.hover();
  expect(await axeFindings(page, '[data-sonner-toaster]')).toEqual([]);
  await page.mouse.move(0, 0);

  // The timeline opens from the row with the keyboard and tells the story.
  await mine.getByTestId('alert-timeline-open').focus();
  await page.keyboard.press('Enter');
  const timeline = page.getByTestId('alert-timeline');
  await expect(timeline).toBeVisible();
  await expect(timeline.getByRole('heading')).toContainText('経過');
  const events = timeline.getByTestId('timeline-event');
  await expect(events.first()).toHaveAttribute('data-kind', 'raised');
  const confirmed = events.and(page.locator('[data-kind="confirmed"]'));
  await expect(confirmed).toContainText('さんが確認');
  await expect(confirmed.getByTestId('timeline-confirm-reason')).toHaveText('病院へ搬送');
  await expect(confirmed.getByTestId('timeline-confirm-note')).toHaveText('救急搬送、付き添いあり');
  await expect(events.last()).toHaveAttribute('data-kind', 'closed');
  // (After the confirm's toast has gone: it is not part of the dialog.)
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  expect(await axeFindings(page)).toEqual([]);

  // Escape closes it; English and a phone's width say the same.
  await page.keyboard.press('Escape');
  await expect(timeline).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/alert-histories?lng=en');
  await waitForPage(page);
  await page.getByTestId('filter-type').selectOption('SOS_CALL');
  const card = page.locator(`[data-alert-id="${alertId}"]`);
  await card.getByRole('button', { name: /View the timeline/ }).click();
  await expect(
    timeline.locator('[data-kind="confirmed"]').getByTestId('timeline-confirm-reason'),
  ).toHaveText('Transferred to hospital');
  expect(await auditView(page, 'timeline en 360')).toEqual([]);
});
