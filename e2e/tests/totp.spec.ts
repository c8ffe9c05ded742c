import { SECOND_ORG_OWNER_EMAIL, DEMO_PASSWORD } from '../support/roles.js';
import { readStorage, signIn, STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { codeAfter, totpCode, totpStep } from '../support/totp.js';

/*
 * Two-step sign-in told as a story in the browser: a staff member turns TOTP on from /user/info
 * (QR code, then a code), logs out, logs in with the password, is asked for the code, and a wrong
 * code is refused before the right one lets them in. It borrows the second organisation's owner,
 * whom no other browser test signs in, and turns TOTP off again at the end.
 */
test.describe.configure({ mode: 'serial' });

test('staff turn on two-step sign-in, and the login form then asks for the code', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, request, SECOND_ORG_OWNER_EMAIL);
  await page.goto('/user/info?lng=en');
  await waitForPage(page);
  await page.getByTestId('totp-turn-on').click();
  await expect(
    page.getByRole('img', { name: 'QR code to add this account to an authenticator app' }),
  ).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  const enabledAt = totpStep();
  await page
    .getByLabel('6-digit code from the authenticator app')
    .fill(totpCode(secret, enabledAt * 30_000));
  await page.getByTestId('totp-confirm').click();
  await expect(page.getByTestId('totp-state')).toHaveText(
    'On: signing in asks for a code from your authenticator app.',
  );

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(urlWithPath('/login'));
  await page.getByLabel('Email address').fill(SECOND_ORG_OWNER_EMAIL);
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  expect((await readStorage(page))[STORAGE_KEYS.accessToken]).toBeUndefined();

  // The code of this step was spent turning TOTP on: a wrong code first, then the next step's.
  const { code, step: signedInAt } = await codeAfter(secret, enabledAt);
  await page
    .getByLabel('6-digit code from the authenticator app')
    .fill(code === '000000' ? '111111' : '000000');
  await page.getByTestId('totp-submit').click();
  await expect(page.getByTestId('totp-error')).toHaveText(
    'The code is incorrect. Check the app and enter the current code.',
  );
  await page.getByLabel('6-digit code from the authenticator app').fill(code);
  await page.getByTestId('totp-submit').click();
  await expect(page).toHaveURL(urlWithPath('/devices'));
  await waitForPage(page);

  // Leave the account as the other tests expect it: TOTP off (with the next step's code).
  const accessToken = (await readStorage(page))[STORAGE_KEYS.accessToken] ?? '';
  const off = await request.post('/v2/auth/totp/disable', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { code: (await codeAfter(secret, signedInAt)).code },
  });
  expect(off.status(), await off.text()).toBe(200);
});
