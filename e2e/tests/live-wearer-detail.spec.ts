import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT, pressSos, sendReadings, wearerUid } from './live-gateway.js';

test('the wearer page shows the latest state, a chart canvas with its data summary, and the alert cause', async ({
  page,
  request,
}) => {
  await sendReadings(request, 9, { heartRate: 80, skinTemperature: 34.6, battery: 55 }, 20);
  await pressSos(request, 9);
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/devices');
  await waitForPage(page);
  await page
    .locator(`[data-testid="wearer-row"][data-uid="${wearerUid(9)}"]`)
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(new RegExp(`/devices/${DEMO_CLIENT}/${wearerUid(9)}$`));
  await waitForPage(page);

  await expect(page.getByTestId('wearer-header')).toContainText('DEMO-BR-009');
  await expect(page.getByTestId('wearer-latest')).toContainText('34.6 ℃');
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();
  const summary = page.getByTestId('history-summary');
  await expect(summary).toContainText('心拍数');
  await expect(summary.getByRole('row', { name: /心拍数/ })).toContainText(/8[0-2]\.\d/);
  await expect(page.getByTestId('wearer-alerts').getByTestId('alert-cause').first()).toHaveText(
    'SOSボタンが押されました',
  );

  await page.getByTestId('history-period-7d').click();
  await expect(page.getByTestId('history-period-7d')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();
});
