import { readFile } from 'node:fs/promises';
import { SECOND_ORG_OWNER_EMAIL } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { pressSos } from './live-gateway.js';

test('/alert-histories: a new SOS appears without a reload and can be confirmed with a reason and a note; another organisation never sees it', async ({
  page,
  request,
  browser,
}) => {
  await signIn(page, request, 'org-general@example.com');
  await page.goto('/alert-histories');
  await waitForPage(page);
  await page.getByTestId('filter-type').selectOption('SOS_CALL');

  await pressSos(request, 5);
  const row = page
    .locator('[data-testid="alert-row"]')
    .filter({ hasText: 'SOSボタンが押されました' })
    .filter({ hasText: '第一現場' });
  const ours = row.filter({ has: page.getByTestId('alert-confirm') });
  await expect(ours.first()).toBeVisible();
  const alertId = await ours.first().getAttribute('data-alert-id');
  expect(alertId).toBeTruthy();
  const mine = page.locator(`[data-testid="alert-row"][data-alert-id="${alertId}"]`);
  await expect(mine.getByTestId('alert-badge')).toHaveAttribute('data-colour', 'red');

  await mine.getByTestId('alert-confirm').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('理由').selectOption('CHECKED_ON_SITE');
  await dialog.getByLabel('メモ').fill('本人に電話で確認');
  await dialog.getByTestId('confirm-submit').click();
  await expect(mine.getByTestId('alert-status')).toContainText('確認済み');
  await expect(mine.getByTestId('alert-confirm-reason')).toHaveText('現場で確認');
  await expect(mine.getByTestId('alert-confirm-note')).toHaveText('本人に電話で確認');
  await expect(mine.getByTestId('alert-confirm')).toHaveCount(0);
  // One toast for the action: the result, not the result and the count popup.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(1);

  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, request, SECOND_ORG_OWNER_EMAIL);
  const listed = other.waitForResponse((res) => res.url().includes('/v2/alert/list') && res.ok());
  await other.goto('/alert-histories');
  await listed;
  await waitForPage(other);
  await expect(other.locator(`[data-alert-id="${alertId}"]`)).toHaveCount(0);
  await expect(other.getByText('デモ建設', { exact: false })).toHaveCount(0);
  await context.close();
});

test('/alert-histories: the CSV download is a UTF-8 file with a BOM', async ({ page, request }) => {
  await pressSos(request, 6);
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/alert-histories');
  await waitForPage(page);
  await expect(page.getByTestId('alert-row').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('alert-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^alerts-\d{8}\.csv$/);
  const bytes = await readFile(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.toString('utf8')).toContain('SOS');
});
