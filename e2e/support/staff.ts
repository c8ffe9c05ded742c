import type { APIRequestContext } from '@playwright/test';
import { expect, type Page } from './test.js';
import { DEMO_CLIENT } from '../tests/live-gateway.js';

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A group of the demo organisation of the test's own, so the demo's groups stay as other files expect. */
export async function newGroup(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  const res = await request.post('/v2/group', {
    headers: auth(token),
    data: { clientId: DEMO_CLIENT, name },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export async function tabTo(
  page: Page,
  target: ReturnType<Page['locator']>,
  max = 120,
): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}
