import { auditView } from '../support/a11y.js';
import { confirmOpenAlerts, signInByApi } from '../support/api.js';
import { signIn, waitForPage } from '../support/session.js';
import { tabTo } from '../support/staff.js';
import { expect, test } from '../support/test.js';
import { pressSos, wearerUid } from './live-gateway.js';

/**
 * Issue 34, item 8: a family member is told. personal@example.com (佐藤 良子, PERSONAL) watches
 * demo wearers 1 and 2; wearer 1's SOS is sent through the real gateway API while she is on
 * /user/record, and the banner appears without a reload, on every page of hers, until staff confirm
 * it ("being handled"). Wearer 1's SOS is used only here (personal-records only sends readings).
 */
const WEARER = 1;

test('a family member sees a watched wearer’s SOS as a live banner on every page, then that staff handle it', async ({
  page,
  request,
}) => {
  const staff = await signInByApi(request, 'org-owner@example.com');
  // A retry starts from no open SOS of the wearer.
  await confirmOpenAlerts(request, staff.accessToken, wearerUid(WEARER), 'SOS_CALL');

  const { user } = await signIn(page, request, 'personal@example.com', { selectDevice: true });
  const name = user.devices.find((d) => d.uid === wearerUid(WEARER))?.name ?? '';
  expect(name).not.toBe('');
  const ticket = page.waitForResponse((r) => r.url().endsWith('/v3/live/ticket') && r.ok());
  await page.goto('/user/record');
  await waitForPage(page);
  await ticket;
  const item = page.getByTestId('family-alert').filter({ hasText: name });
  await expect(item).toHaveCount(0);

  await pressSos(request, WEARER);
  // Live: the stream's `alert` event, not a reload (the banner's own poll is a minute).
  await expect(item).toBeVisible({ timeout: 5_000 });
  await expect(item).toHaveAttribute('role', 'alert');
  await expect(item).toHaveAttribute('data-state', 'open');
  await expect(item).toContainText(`${name}さん: SOS発信`);
  await expect(item.getByTestId('family-alert-status')).toHaveText(
    'スタッフに知らせています。まだ対応の確認はありません。',
  );
  await expect(page.getByRole('region', { name: '見守り中の方のアラート' })).toBeVisible();
  // Keyboard reachable: its link is in the tab order.
  await tabTo(page, item.getByRole('link'));

  expect(await auditView(page, 'ja 1280')).toEqual([]);
  await page.screenshot({ path: 'test-results/family-banner-ja-1280.png' });
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(item).toBeVisible();
  expect(await auditView(page, 'ja 360')).toEqual([]);
  await page.screenshot({ path: 'test-results/family-banner-ja-360.png' });

  // Every page of hers: the alert settings page has it, and the choice to be told by mail.
  await page.goto('/user/settings/alert?lng=en');
  await waitForPage(page);
  await expect(item).toContainText(`${name}: SOS call`);
  const settings = page.getByTestId('family-notice-settings');
  await expect(settings.getByRole('heading', { name: 'Tell me by message' })).toBeVisible();
  await settings.getByRole('radio', { name: /^Mail \(/ }).check();
  await expect(page.getByTestId('family-notice-status')).toHaveText('Saved.');
  expect(await auditView(page, 'en 360')).toEqual([]);
  await page.screenshot({ path: 'test-results/family-banner-en-360.png', fullPage: true });
  await page.reload();
  await waitForPage(page);
  await expect(settings.getByRole('radio', { name: /^Mail \(/ })).toBeChecked();
  await settings.getByRole('radio', { name: 'Do not tell me' }).check();
  await expect(page.getByTestId('family-notice-status')).toHaveText('Saved.');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/user/record');
  await waitForPage(page);
  await expect(item).toBeVisible();
  expect(await auditView(page, 'en 1280')).toEqual([]);
  await page.screenshot({ path: 'test-results/family-banner-en-1280.png' });

  // Staff confirm it: the banner says so, live, and she may put it away.
  await confirmOpenAlerts(request, staff.accessToken, wearerUid(WEARER), 'SOS_CALL');
  await expect(item).toHaveAttribute('data-state', 'handled');
  await expect(item.getByTestId('family-alert-status')).toHaveText(
    'The staff have confirmed it and are handling it.',
  );
  await item
    .getByRole('button', { name: `Close the note that ${name}'s alert is being handled` })
    .click();
  await expect(item).toHaveCount(0);
});
