import { auditView, axeFindings } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { endActiveSnoozes } from '../support/api.js';
import { DEMO_CLIENT, pressSos, sendReadings, wearerUid } from './live-gateway.js';

const WEARER = 7;

test('snooze a CAUTION alert type of one wearer with a reason (never an EMERGENCY), see it on the shift handover, end it; by keyboard, ja and en, at 360 px', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, 'org-general@example.com');
  // This try's own reason, from no active snooze: a retry on the same server finds the first try's.
  await endActiveSnoozes(request, accessToken, wearerUid(WEARER));
  const reason = `階段作業中で心拍が振れるため（${Date.now().toString(36)}）`;
  // A heart rate under the lower bound (CAUTION) and an SOS (EMERGENCY) for the same wearer.
  await sendReadings(request, WEARER, { heartRate: 30, skinTemperature: 34, battery: 80 }, 1);
  await pressSos(request, WEARER);

  await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WEARER)}/alert_histories`);
  await waitForPage(page);
  const heart = page.locator('[data-testid="alert-row"][data-type="HEART_RATE"]').first();
  const sos = page.locator('[data-testid="alert-row"][data-type="SOS_CALL"]').first();
  await expect(heart).toBeVisible();
  await expect(sos).toBeVisible();
  await expect(sos.getByTestId('alert-snooze-open')).toHaveCount(0);

  await heart.getByTestId('alert-snooze-open').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('snooze-dialog');
  await expect(dialog.getByRole('heading')).toContainText('心拍数異常を一時停止');
  await dialog.getByLabel('停止する時間（最長12時間）').selectOption('120');
  await dialog.getByLabel('理由（必須）').fill(reason);
  await dialog.getByTestId('snooze-submit').click();
  await expect(dialog).toHaveCount(0);

  // A second snooze of the same type is refused by the server, and its message is shown.
  await heart.getByTestId('alert-snooze-open').click();
  await dialog.getByLabel('理由（必須）').fill('もう一度');
  await dialog.getByTestId('snooze-submit').click();
  await expect(dialog.getByTestId('snooze-error')).not.toBeEmpty();
  await page.keyboard.press('Escape');

  // The handover page, reached from the alert history.
  await page.goto('/alert-histories');
  await waitForPage(page);
  await page.getByTestId('alert-handover-link').click();
  await expect(page).toHaveURL(/\/alert-histories\/handover$/);
  const snooze = page
    .locator('[data-testid="handover-snooze"][data-state="active"]')
    .filter({ hasText: reason });
  await expect(snooze).toHaveCount(1);
  await expect(snooze).toContainText('心拍数異常');
  await expect(
    page.getByTestId('handover-open').locator('[data-testid="alert-row"]').first(),
  ).toBeVisible();
  await page.getByTestId('handover-hours').selectOption('24');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  expect(await axeFindings(page)).toEqual([]);

  // Ending it by keyboard: the snooze stays listed as ended (it was set during the shift).
  await snooze.getByTestId('handover-snooze-end').focus();
  await page.keyboard.press('Enter');
  const ended = page.locator('[data-testid="handover-snooze"]').filter({ hasText: reason });
  await expect(ended).toHaveAttribute('data-state', 'ended');
  await expect(ended.getByTestId('handover-snooze-end')).toHaveCount(0);

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/alert-histories/handover?lng=en');
  await waitForPage(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shift handover');
  await expect(
    page
      .getByTestId('handover-snooze')
      .filter({ hasText: reason })
      .getByTestId('handover-snooze-state'),
  ).toHaveText('Ended');
  expect(await auditView(page, 'handover en 360')).toEqual([]);
});
