import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { fetchUser, signInByApi, type UserDevice, type UserInfo } from './api.js';

/**
 * localStorage keys the web app keeps its session under (apps/web/src/lib/storage.ts). The tests that are not about
 * the login form put a session there directly instead of typing into the form for every test.
 */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  loginTime: 'loginTime',
  refreshExpiresIn: 'refreshExpiresIn',
  userInfo: 'userInfo',
  selectedDevice: 'selectedDevice',
  language: 'i18nextLng',
  emailLinkAddress: 'emailLinkAddress',
} as const;

export interface Session {
  user: UserInfo;
  accessToken: string;
}

export interface SignInOptions {
  /** PERSONAL only: store the first linked wearer as the selected device, as /select-device would. */
  selectDevice?: boolean;
  /** When the sign-in happened (epoch ms); default now. An old one lets a test reach the session's end at once. */
  loginTime?: number;
}

/** Opens a same-origin URL that runs none of the app, so localStorage can be written before the app starts. */
async function openBlankOnOrigin(page: Page): Promise<void> {
  await page.goto('/readyz');
}

export async function writeStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await openBlankOnOrigin(page);
  await page.evaluate((all) => {
    for (const [key, value] of Object.entries(all)) localStorage.setItem(key, value);
  }, entries);
}

export async function readStorage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const all: Record<string, string> = {};
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key !== null) all[key] = localStorage.getItem(key) ?? '';
    }
    return all;
  });
}

export function selectedDeviceOf(user: UserInfo): UserDevice {
  const first = user.devices[0];
  if (!first) throw new Error(`${user.name} (${user.role}) has no linked wearer to select`);
  return first;
}

/** Signs in by API and leaves the browser holding that session; the next page.goto starts the app signed in. */
export async function signIn(
  page: Page,
  request: APIRequestContext,
  email: string,
  opts: SignInOptions = {},
): Promise<Session> {
  const tokens = await signInByApi(request, email);
  const user = await fetchUser(request, tokens.accessToken);
  const entries: Record<string, string> = {
    [STORAGE_KEYS.accessToken]: tokens.accessToken,
    [STORAGE_KEYS.refreshToken]: tokens.refreshToken,
    [STORAGE_KEYS.loginTime]: String(opts.loginTime ?? Date.now()),
    [STORAGE_KEYS.refreshExpiresIn]: String(tokens.refreshExpiresIn),
    [STORAGE_KEYS.userInfo]: JSON.stringify(user),
  };
  if (opts.selectDevice)
    entries[STORAGE_KEYS.selectedDevice] = JSON.stringify(selectedDeviceOf(user));
  await writeStorage(page, entries);
  return { user, accessToken: tokens.accessToken };
}

/** Waits until the app has initialised and shows a page (its heading), so the URL is final. */
export async function waitForPage(page: Page): Promise<void> {
  await expect(page.getByTestId('page-heading')).toBeVisible();
  await expect(page.getByTestId('app-spinner')).toBeHidden();
}

/**
 * Readings reach the latest values and the rollups with the server's next flush (ROLLUP_FLUSH_MS, 2 s); a record or
 * report page opened before it shows none until its next poll (20 s) or for good (a report). Opens the page again
 * until `check` passes (each try gives it 1 s).
 */
export async function reloadUntilFlushed(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload();
    await waitForPage(page);
    await check();
  }).toPass({ timeout: 15_000 });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches a URL whose path is exactly `path` (any query or hash). */
export const urlWithPath = (path: string): RegExp =>
  new RegExp(`^[^/]+//[^/]+${escapeRegExp(path)}(?:[?#].*)?$`);

/**
 * Goes to `path` and expects the app to settle on `expected` (the guard may redirect more than once).
 * Soft, so a table of rows reports every wrong row, not just the first.
 */
export async function expectLanding(page: Page, path: string, expected: string): Promise<void> {
  await page.goto(path);
  await expect.soft(page, `${path} should land on ${expected}`).toHaveURL(urlWithPath(expected));
  await waitForPage(page);
  await expect.soft(page, `${path} should stay on ${expected}`).toHaveURL(urlWithPath(expected));
}
