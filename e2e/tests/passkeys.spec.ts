import type { CDPSession } from '@playwright/test';
import { auditView, setWidth, settle, useLanguage } from '../support/a11y.js';
import { fetchUser, signInByApi, type TokenPair } from '../support/api.js';
import { mailDir, newestMailTo } from '../support/mail.js';
import { auth } from '../support/staff.js';
import {
  readStorage,
  STORAGE_KEYS,
  urlWithPath,
  waitForPage,
  writeStorage,
} from '../support/session.js';
import { expect, test } from '../support/test.js';

/*
 * Passkeys told as a story in a real browser: Chromium's DevTools protocol gives the page a virtual
 * authenticator (CTAP2, built in, resident keys, user verification), so navigator.credentials runs as on
 * a laptop with a fingerprint reader. A staff member invited for this story adds a passkey on /user/info,
 * signs out, signs in with the login page's passkey button (no address typed) and removes it.
 *
 * WebAuthn takes no IP address as the relying party: the page is opened as http://localhost:PORT (the
 * server's PUBLIC_URL is http://127.0.0.1:PORT, the same server; relying-party.ts).
 */
test.skip(!mailDir(), 'needs the server global-setup starts (its DATA_DIR holds the mail files)');
test.use({ baseURL: (process.env.E2E_BASE_URL ?? '').replace('127.0.0.1', 'localhost') });

async function virtualAuthenticator(cdp: CDPSession): Promise<string> {
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

test('staff add a passkey on the account page, sign in with it, and remove it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A new staff member of the demo organisation, by invitation (nobody else's sessions are touched).
  const email = `passkey-${Date.now()}@example.com`;
  const owner = await signInByApi(request, 'org-owner@example.com');
  const asked = Date.now();
  const invite = await request.post('/v2/user/invite', {
    headers: auth(owner.accessToken),
    data: { email, role: 'ORGANIZATION_GENERAL' },
  });
  expect(invite.status(), await invite.text()).toBeLessThan(300);
  const mail = await newestMailTo(email, asked);
  const token = /#invite=([\w-]+)/.exec(mail.text)?.[1] ?? '';
  const registered = await request.post('/v2/user/register', {
    data: {
      token,
      email,
      name: 'パスキー 花子',
      password: 'a-long-password-2026',
      agreedToTerms: true,
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const pair = (await registered.json()) as TokenPair;

  const cdp = await page.context().newCDPSession(page);
  const authenticatorId = await virtualAuthenticator(cdp);

  // Signed in (the tokens of the registration), in English, on the account page.
  await useLanguage(page, 'en');
  await writeStorage(page, {
    [STORAGE_KEYS.accessToken]: pair.accessToken,
    [STORAGE_KEYS.refreshToken]: pair.refreshToken,
    [STORAGE_KEYS.loginTime]: String(Date.now()),
    [STORAGE_KEYS.refreshExpiresIn]: String(pair.refreshExpiresIn),
    [STORAGE_KEYS.userInfo]: JSON.stringify(await fetchUser(request, pair.accessToken)),
  });
  await page.goto('/user/info');
  await waitForPage(page);
  const settings = page.getByTestId('passkey-settings');
  await expect(settings.getByTestId('passkeys-none')).toHaveText('No passkeys yet.');

  // Keyboard: the name field and the add button are reached and pressed without a mouse.
  await settings.getByLabel('Passkey name').fill('Work laptop');
  await settings.getByLabel('Passkey name').press('Enter');
  await expect(settings.getByTestId('passkeys-status')).toHaveText('Passkey “Work laptop” added.');
  await expect(settings.getByTestId('passkey-item')).toHaveCount(1);
  await expect(settings.getByTestId('passkey-item')).toContainText('Work laptop');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);

  // The account page passes axe and fits 360 px, with a passkey listed.
  await setWidth(page, 360);
  await settle(page);
  expect(await auditView(page, 'account page with a passkey at 360 px')).toEqual([]);
  await setWidth(page, 1280);

  // Sign out, then in with the passkey: no address typed.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(urlWithPath('/login'));
  expect((await readStorage(page))[STORAGE_KEYS.accessToken]).toBeUndefined();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(urlWithPath('/devices'));
  await waitForPage(page);
  expect((await readStorage(page))[STORAGE_KEYS.accessToken]).toBeTruthy();

  // With a passkey, the password is followed by a second step the passkey answers.
  const challenge = await request.post('/v2/auth/signIn', {
    data: { email, password: 'a-long-password-2026' },
  });
  expect(await challenge.json()).toMatchObject({ code: 'PASSKEY_REQUIRED', factors: ['passkey'] });

  // Remove it: the list is empty again and the password alone signs in.
  await page.goto('/user/info?lng=en');
  await waitForPage(page);
  await expect(settings.getByTestId('passkey-item')).toContainText('Last used');
  await settings.getByRole('button', { name: 'Remove passkey “Work laptop”' }).click();
  await expect(settings.getByTestId('passkeys-status')).toHaveText(
    'Passkey “Work laptop” removed.',
  );
  await expect(settings.getByTestId('passkeys-none')).toBeVisible();
  const plain = await request.post('/v2/auth/signIn', {
    data: { email, password: 'a-long-password-2026' },
  });
  expect(await plain.json()).toHaveProperty('accessToken');
});
