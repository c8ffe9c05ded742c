import { openWith } from '../support/actions.js';
import { auditView, setWidth, settle } from '../support/a11y.js';
import { mailDir, newestMailTo } from '../support/mail.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.skip(!mailDir(), 'needs the server global-setup starts (its DATA_DIR holds the mail files)');

test('an owner invites a colleague on /settings/admins; the colleague opens the link from the .eml, registers and is signed in', async ({
  page,
  request,
}) => {
  const email = `invitee-${Date.now()}@example.com`;
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/settings/admins');
  await settle(page);
  await page.getByTestId('invite-open').click();
  const dialog = page.getByTestId('invite-dialog');
  await dialog.getByTestId('invite-email').fill(email);
  await dialog.getByTestId('invite-role').selectOption('ORGANIZATION_GENERAL');
  const asked = Date.now();
  await dialog.getByTestId('invite-submit').click();
  await expect(dialog.getByTestId('invite-sent')).toBeVisible();
  await dialog.getByRole('button', { name: '閉じる' }).first().click();
  await expect(page.getByTestId('pending-invitation').filter({ hasText: email })).toBeVisible();

  const mail = await newestMailTo(email, asked);
  const link = /https?:\/\/\S+\/verify#invite=[\w-]+/.exec(mail.text)?.[0];
  expect(link, 'the mail holds a /verify#invite= link').toBeTruthy();

  // The invitee, in a browser with no session.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link ?? '');
  await expect(page.getByTestId('invitation-summary')).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  await setWidth(page, 360);
  expect(await auditView(page, 'registration at 360 px')).toEqual([]);
  // The form checks what the server checks: 11 characters is not a password.
  await page.getByTestId('register-name').fill('招待 花子');
  await page.getByTestId('register-password').fill('eleven-char');
  await page.getByTestId('register-submit').click();
  await expect(page.getByText('パスワードは12文字以上にしてください。')).toBeVisible();
  await page.getByTestId('register-password').fill('a-long-password-2026');
  // Keyboard: the consent box is reached and ticked with the space bar.
  await page.getByTestId('register-terms').focus();
  await page.keyboard.press('Space');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(urlWithPath('/devices'));
  await waitForPage(page);

  // General staff see the staff list, not the owner's buttons.
  await page.goto('/settings/admins');
  await settle(page);
  await expect(page.getByTestId('member-row').filter({ hasText: email })).toBeVisible();
  await expect(page.getByTestId('invite-open')).toHaveCount(0);

  // The link was used: its own page.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link ?? '');
  await expect(page.getByTestId('page-heading')).toHaveText('この招待リンクはすでに使われています');
});

test('a platform owner picks the organisation on /settings/admins and sees its staff (360 px, axe)', async ({
  page,
  request,
}) => {
  await signIn(page, request, 'all-owner@example.com');
  await setWidth(page, 360);
  await page.goto('/settings/admins');
  await settle(page);
  await expect(page.getByTestId('member-table')).toHaveCount(0);
  const picker = page.getByTestId('admins-organization');
  await picker.selectOption({ index: 1 });
  await expect(page.getByTestId('member-row').first()).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
  expect(await auditView(page, 'platform owner, staff list at 360 px')).toEqual([]);
  // The platform owner may invite into the chosen organisation: its roles only, never the platform's (issue 35).
  // The role list is read once the dialog is open (evaluateAll does not wait for it).
  await openWith(page.getByTestId('invite-open'), page.getByTestId('invite-role'));
  const options = await page
    .getByTestId('invite-role')
    .locator('option')
    .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));
  expect(options).toEqual(
    expect.arrayContaining(['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP']),
  );
  expect(options).not.toContain('ALL_OWNER');
  expect(options).not.toContain('ALL_GENERAL');
});
