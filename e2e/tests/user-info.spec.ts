import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { auditView, setWidth, settle } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { DEMO_PASSWORD } from '../support/roles.js';
import { mailDir, newestMailTo } from '../support/mail.js';
import { signIn, urlWithPath } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.skip(
  !mailDir(),
  'needs the server global-setup starts (its DATA_DIR holds the mail and SMS files)',
);

/** A new staff member of the demo organisation (invited and registered through the API), so demo accounts stay as they are. */
async function newcomer(request: APIRequestContext): Promise<string> {
  const email = `account-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const owner = await signInByApi(request, 'org-owner@example.com');
  const asked = Date.now();
  const invited = await request.post('/v2/user/invite', {
    headers: { authorization: `Bearer ${owner.accessToken}` },
    data: { email, role: 'ORGANIZATION_GENERAL' },
  });
  expect(invited.status()).toBe(201);
  const mail = await newestMailTo(email, asked);
  const token = /\/verify#invite=([\w-]+)/.exec(mail.text)?.[1] ?? '';
  const registered = await request.post('/v2/user/register', {
    data: { token, email, name: '口座 太郎', password: DEMO_PASSWORD, agreedToTerms: true },
  });
  expect(registered.status()).toBe(200);
  return email;
}

/** The code of the newest SMS to the number, from the embedded provider's files (DATA_DIR/sms). */
async function smsCode(phoneNumber: string): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'sms');
  let code = '';
  await expect
    .poll(async () => {
      const files = (await readdir(dir).catch(() => [] as string[]))
        .filter((f) => f.includes(`_${phoneNumber}_sms`))
        .sort();
      const file = files.at(-1);
      if (!file) return false;
      code = /(?:コード|check): (\d{6})/.exec(await readFile(join(dir, file), 'utf8'))?.[1] ?? '';
      return code !== '';
    })
    .toBe(true);
  return code;
}

test('/user/info: name, phone by SMS code, address by link, password and sessions, with the keyboard at 360 px', async ({
  page,
  request,
}) => {
  const email = await newcomer(request);
  await signIn(page, request, email);
  // A second session elsewhere, to sign out from here.
  await signInByApi(request, email);
  await setWidth(page, 360);
  await page.goto('/user/info');
  await settle(page);
  expect(await auditView(page, '/user/info at 360 px')).toEqual([]);

  // Name: typed and saved with Enter.
  const name = page.getByTestId('account-name');
  await name.getByLabel('お名前').fill('口座 花子');
  await name.getByLabel('お名前').press('Enter');
  await expect(name.getByRole('status')).toHaveText('名前を保存しました。');
  await expect(page.getByTestId('user-info')).toContainText('口座 花子');

  // Phone: the form checks the format as the server does; the number is saved only with the SMS code.
  const phone = page.getByTestId('account-phone');
  await phone.getByLabel('新しい電話番号').fill('090-1234');
  await phone.getByRole('button', { name: 'コードを送る' }).click();
  await expect(phone.getByRole('alert')).toHaveText(
    '国際形式で入力してください（例: +819012345678）。',
  );
  const number = `+8170${String(Date.now()).slice(-8)}`;
  await phone.getByLabel('新しい電話番号').fill(number);
  await phone.getByLabel('新しい電話番号').press('Enter');
  await expect(phone.getByRole('status')).toContainText(number);
  await phone.getByLabel('6桁のコード').fill(await smsCode(number));
  await phone.getByLabel('6桁のコード').press('Enter');
  await expect(page.getByTestId('account-phone-now')).toHaveText(`${number} (確認済み)`);

  // Password: the current one is required; then the new one works.
  const password = page.getByTestId('account-password');
  await password.getByLabel('現在のパスワード').fill('not-my-password');
  await password.getByLabel('新しいパスワード').fill('a-new-password-2026');
  await password.getByRole('button', { name: 'パスワードを変更' }).click();
  await expect(password.getByRole('alert')).toHaveText('現在のパスワードが正しくありません。');
  await password.getByLabel('現在のパスワード').fill(DEMO_PASSWORD);
  await password.getByRole('button', { name: 'パスワードを変更' }).click();
  await expect(password.getByRole('status')).toContainText('パスワードを変更しました');
  // The other session ended with the change: only this one is listed.
  await page.reload();
  await settle(page);
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expect(page.getByTestId('session-current')).toBeVisible();

  // Address: nothing changes until the link mailed to the new address is opened.
  const next = `changed-${Date.now()}@example.com`;
  const emailForm = page.getByTestId('account-email');
  const asked = Date.now();
  await emailForm.getByLabel('新しいメールアドレス').fill(next);
  await emailForm.getByRole('button', { name: '確認リンクを送る' }).click();
  await expect(emailForm.getByRole('status')).toContainText(next);
  await expect(page.getByTestId('account-email-now')).toContainText(email);
  const link =
    /https?:\/\/\S+\/verify-email#token=[\w-]+/.exec((await newestMailTo(next, asked)).text)?.[0] ??
    '';
  expect(link).not.toBe('');
  await page.goto(link);
  await expect(page.getByTestId('verify-email-done')).toContainText(next);
  expect(new URL(page.url()).hash).toBe('');
  expect(await auditView(page, '/verify-email at 360 px')).toEqual([]);
  // Opened again (a fresh page load: the same path with a fragment would be an in-page jump): used.
  await page.goto('/readyz');
  await page.goto(link);
  await expect(page.getByTestId('verify-email-error')).toHaveAttribute('data-code', 'LINK_USED');

  // Sessions: a second one (the new address and password), signed out from here; then everywhere.
  const again = await request.post('/v2/auth/signIn', {
    data: { email: next, password: 'a-new-password-2026' },
  });
  expect(again.status()).toBe(200);
  await page.goto('/user/info');
  await settle(page);
  await expect(page.getByTestId('account-email-now')).toContainText(next);
  await expect(page.getByTestId('session-row')).toHaveCount(2);
  await page
    .getByTestId('session-row')
    .filter({ hasNot: page.getByTestId('session-current') })
    .getByRole('button')
    .click();
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  const refreshed = await request.post('/v2/auth/refresh', {
    data: { refreshToken: (await again.json()).refreshToken },
  });
  expect(refreshed.status()).toBe(401);
  await page.getByTestId('sign-out-everywhere').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(urlWithPath('/login'));
});
