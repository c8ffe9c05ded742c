import { confirmOpenAlerts } from '../support/api.js';
import { SECOND_ORG_OWNER_EMAIL } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { bracelet, pressSos, sendReadings, wearerUid } from './live-gateway.js';

// Each test uses its own demo wearer, so parallel tests never share an open alert.

test('/devices: an organisation owner sees live columns and the coverage strip', async ({
  page,
  request,
}) => {
  await sendReadings(request, 3, { heartRate: 88, skinTemperature: 34.2, battery: 15 });
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/devices');
  await waitForPage(page);

  const row = page.locator(`[data-testid="wearer-row"][data-uid="${wearerUid(3)}"]`);
  await expect(row).toContainText(/8[89]|90 bpm/);
  await expect(row).toContainText('34.2 ℃');
  await expect(row).toContainText('装着中');
  await expect(row).toContainText('15%');
  await expect(row).toContainText('オンライン');
  await expect(page.getByTestId('coverage-strip')).toBeVisible();
  // Wearer 3 has 15 % battery: at least one low-battery wearer is counted.
  await expect(page.getByTestId('coverage-lowBattery')).not.toContainText(/^電池残量 20% 以下0人$/);
  // The row links to the wearer's page (sort and test ids kept from the plain list).
  await expect(row.getByRole('link')).toHaveAttribute('href', `/devices/demo-org/${wearerUid(3)}`);
  await expect(page.getByTestId('sort-select')).toBeVisible();
});

test('/devices: an SOS through the gateway API shows as a red badge without a reload; not for another organisation', async ({
  page,
  request,
  browser,
}) => {
  await sendReadings(request, 4, { heartRate: 75, skinTemperature: 33.9, battery: 70 });
  const { accessToken } = await signIn(page, request, 'org-owner@example.com');
  // From no open SOS (a retry on the same server finds the first try's).
  await confirmOpenAlerts(request, accessToken, wearerUid(4), 'SOS_CALL');
  await page.goto('/devices');
  await waitForPage(page);
  const row = page.locator(`[data-testid="wearer-row"][data-uid="${wearerUid(4)}"]`);
  await expect(row).toBeVisible();
  // (Other tests share the demo gateway: a heat test's hot WBGT may give this wearer a heat alert meanwhile.)
  const sosBadge = row.getByTestId('alert-badge').filter({ hasText: 'SOS発信' });
  await expect(sosBadge).toHaveCount(0);
  // The server-sent events stream is open (not the 10-second polling fallback).
  await expect(page.getByTestId('live-status')).toHaveText('リアルタイム更新中');

  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  await pressSos(request, 4);
  const badge = sosBadge;
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAttribute('data-colour', 'red');
  expect(reloaded).toBe(false);
  const name = (await row.getByRole('link').first().innerText()).trim();
  expect(name).not.toBe('');

  // The second organisation's owner, in a browser of their own, sees neither the wearer nor the alert: their
  // name is nowhere on the page, not in a row, a badge or the ringing band. (The care home's own SOS stories,
  // live-sound.spec.ts, may have an SOS of theirs open meanwhile.)
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, request, SECOND_ORG_OWNER_EMAIL);
  await other.goto('/devices');
  await waitForPage(other);
  await expect(other.getByTestId('wearer-row').first()).toBeVisible();
  await expect(other.locator(`[data-uid="${wearerUid(4)}"]`)).toHaveCount(0);
  await expect(other.getByText(name)).toHaveCount(0);
  await expect(other.getByText(bracelet(4))).toHaveCount(0);
  await context.close();
});
