import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import { mailDir, newestMailTo } from '../support/mail.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

test.skip(!mailDir(), 'needs the server global-setup starts (its DATA_DIR holds the mail files)');

/*
 * Issue 35, item 1: a platform owner creates a customer organisation on 組織一覧 (name, kind, time
 * zone, the owner to invite), opens its setup checklist and follows the first step; the invited
 * owner registers from the mail (their name pre-filled) and lands on the same checklist. The new
 * page is checked with axe and at 360 px in both languages.
 */
const WORDS = {
  ja: {
    setup: 'はじめの設定',
    ribbon: 'デモ用アカウント',
  },
  en: {
    setup: 'Getting started',
    ribbon: 'demo account',
  },
} as const;

for (const lng of LANGUAGES) {
  test(`a platform owner creates an organisation and follows its checklist; its owner lands there (${lng})`, async ({
    page,
    request,
  }) => {
    const words = WORDS[lng];
    const stamp = `${lng}-${Date.now()}`;
    const name = lng === 'ja' ? `みどり苑 ${stamp}` : `Green Home ${stamp}`;
    const email = `owner-${stamp}@example.com`;
    await useLanguage(page, lng);
    await signIn(page, request, 'all-owner@example.com');
    await page.goto('/organization');
    await settle(page);
    // The demo's platform owner is marked as such, and may remove the demo (not done here).
    await expect(page.getByTestId('demo-account-ribbon')).toContainText(words.ribbon);
    await expect(page.getByTestId('remove-demo')).toBeVisible();

    const dialog = page.getByTestId('create-organization-dialog');
    // On the first, cold page of a run the dialog was seen to close again at once (focus taken
    // back by the page while it settles); opening it again then works.
    await expect(async () => {
      if (!(await dialog.isVisible())) await page.getByTestId('create-organization').click();
      await expect(dialog.getByTestId('create-organization-name')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    // Bad input is named before anything is sent.
    await dialog.getByTestId('create-organization-submit').click();
    await expect(dialog.getByRole('alert').first()).toBeVisible();
    await dialog.getByTestId('create-organization-name').fill(name);
    await dialog.getByTestId('create-organization-kind-CARE_HOME').check();
    await dialog.getByTestId('create-organization-owner-email').fill(email);
    await dialog.getByTestId('create-organization-owner-name').fill('緑川 一郎');
    const asked = Date.now();
    await dialog.getByTestId('create-organization-submit').click();
    await expect(dialog.getByTestId('create-organization-done')).toContainText(email);
    await dialog.getByTestId('create-organization-setup').click();

    await expect(page).toHaveURL(/\/setup\?clientId=/);
    await settle(page);
    await expect(page.getByTestId('page-heading')).toHaveText(words.setup);
    await expect(page.getByTestId('setup-lead')).toContainText(name);
    for (const step of ['groups', 'gateways', 'bracelets', 'wearers', 'pairing', 'recipients']) {
      await expect(page.getByTestId(`setup-step-${step}`)).toHaveAttribute('data-done', 'false');
    }
    for (const width of WIDTHS) {
      await setWidth(page, width);
      expect(await auditView(page, `/setup ${lng} ${width}px`)).toEqual([]);
      await page.screenshot({ path: `test-results/setup-${lng}-${width}.png`, fullPage: true });
    }
    await setWidth(page, 1280);

    // The first step links to the page that does it.
    await page.getByTestId('setup-link-groups').click();
    await expect(page).toHaveURL(urlWithPath('/settings/groups'));
    await waitForPage(page);

    // The invited owner: the mail's link, the name pre-filled, and the checklist after registering.
    const mail = await newestMailTo(email, asked);
    expect(mail.text).not.toContain('ボタン');
    const link = /https?:\/\/\S+\/verify#invite=[\w-]+/.exec(mail.text)?.[0] ?? '';
    expect(link).not.toBe('');
    await page.evaluate(() => localStorage.clear());
    await useLanguage(page, lng);
    await page.goto(link);
    await expect(page.getByTestId('invitation-summary')).toContainText(name);
    await expect(page.getByTestId('register-name')).toHaveValue('緑川 一郎');
    await page.getByTestId('register-password').fill('a-long-password-2026');
    await page.getByTestId('register-terms').check();
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(urlWithPath('/setup'));
    await settle(page);
    await expect(page.getByTestId('setup-lead')).toContainText(name);
    // Until it is done, the checklist leads the owner's menu.
    await expect(page.getByTestId('main-menu').getByRole('link').first()).toHaveText(words.setup);
    await expect(page.getByTestId('demo-account-ribbon')).toHaveCount(0);
  });
}
