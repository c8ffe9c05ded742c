import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './roles.js';

/** The login form's fields by their labels, in either language (not the sign-in method radios, also so named). */
export function loginForm(page: Page) {
  return {
    email: page.getByRole('textbox', { name: /メール|e-?mail/i }),
    password: page.getByLabel(/パスワード|password/i).and(page.locator('input[type="password"]')),
  };
}

/** Signs in through the /login form, as a person would. */
export async function signInWithForm(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto('/login');
  const form = loginForm(page);
  await form.email.fill(email);
  await form.password.fill(password);
  await form.password.press('Enter');
}

/** The hrefs of the main menu's links, in order, as the browser resolved them (path only). */
export async function menuHrefs(page: Page): Promise<string[]> {
  const menu = page.getByTestId('main-menu');
  await expect(menu).toBeVisible();
  return menu
    .locator('a')
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
}

export async function logoHref(page: Page): Promise<string> {
  const logo = page.getByTestId('logo-link');
  await expect(logo).toBeVisible();
  return logo.evaluate((a) => new URL((a as HTMLAnchorElement).href).pathname);
}

/** Picks a language with the header switch, whether it is a select or a pair of buttons. */
export async function chooseLanguage(page: Page, lng: 'ja' | 'en'): Promise<void> {
  const control = page.getByTestId('language-switch');
  await expect(control).toBeVisible();
  const tag = await control.evaluate((el) => el.tagName.toLowerCase());
  const select = tag === 'select' ? control : control.locator('select');
  if ((await select.count()) > 0) {
    await select.first().selectOption(lng);
    return;
  }
  const name = lng === 'ja' ? /日本語|japanese/i : /english|英語/i;
  const button = tag === 'button' ? control : control.getByRole('button', { name });
  await button.click();
  // A switch that opens a list of choices.
  const option = page.getByRole('menuitem', { name }).or(page.getByRole('option', { name }));
  if ((await option.count()) > 0) await option.first().click();
}

export const JAPANESE_TEXT = /[\u3040-\u30ff\u4e00-\u9fff]/;
