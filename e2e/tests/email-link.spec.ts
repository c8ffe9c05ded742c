import { auditView, LANGUAGES, setWidth, settle, useLanguage } from '../support/a11y.js';
import { newestMailTo, mailDir } from '../support/mail.js';
import { STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.skip(!mailDir(), 'needs the server global-setup starts (its DATA_DIR holds the mail files)');

test('email-link sign-in: ask on /login, open the link from the .eml file, signed in; the same link again is refused', async ({
  page,
}) => {
  const email = 'org-general@example.com';
  await page.goto('/login');
  await waitForPage(page);
  await page.getByRole('radio', { name: 'メールのリンク' }).check();
  await page.getByLabel('メールアドレス').fill(email);
  const asked = Date.now();
  await page.getByTestId('email-link-submit').click();
  await expect(page.getByTestId('email-link-sent')).toBeVisible();

  const mail = await newestMailTo(email, asked);
  expect(mail.subject).toBe('[ウェアラブル見守りコンソール] ログイン用リンク');
  const link = /https?:\/\/\S+\/verify#signin=[\w-]+/.exec(mail.text)?.[0];
  expect(link, 'the mail holds a /verify link').toBeTruthy();

  await page.goto(link ?? '');
  await expect(page).toHaveURL(urlWithPath('/devices'));
  await waitForPage(page);
  expect(
    await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.accessToken),
  ).toBeTruthy();

  // Signed out, the same link again: its own page, and the way back to a new one.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link ?? '');
  await expect(page.getByTestId('page-heading')).toHaveText('このリンクは使用済みです');
  await expect(
    page.getByRole('link', { name: 'ログイン画面で新しいリンクを受け取る' }),
  ).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
});

test('every sign-in method on /login passes axe and fits 360 px, in ja and en, by keyboard', async ({
  page,
}) => {
  const failures: string[] = [];
  for (const lng of LANGUAGES) {
    await useLanguage(page, lng);
    await setWidth(page, 360);
    await page.goto('/login');
    await settle(page);
    const methods = page.getByRole('radio');
    await expect(methods).toHaveCount(3);
    // Arrow keys move through the radio group, as for any native radio buttons.
    await methods.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('email-link-submit')).toBeVisible();
    failures.push(...(await auditView(page, `${lng} email link`)));
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('phone-send-code')).toBeVisible();
    failures.push(...(await auditView(page, `${lng} phone`)));
  }
  expect(failures).toEqual([]);
});
