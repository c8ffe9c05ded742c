import { expect, type APIRequestContext } from '@playwright/test';
import { auditView, setWidth, settle, useLanguage } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { DEMO_PASSWORD } from '../support/roles.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { loginForm } from '../support/shell.js';
import { auth } from '../support/staff.js';
import { test } from '../support/test.js';

/**
 * Issue 36 item 4: an alert SMS ends with a short link, PUBLIC_URL/a/<code>, that opens the alert's
 * page after sign-in. The care home's group texts its first step at once (demo-data.ts); its wearer
 * 3 (SAKURA-BR-003) is this file's alone.
 */
const OWNER = 'sakura-owner@example.com';
const GATEWAY = 'Gateway sakura-gateway-1:sakura-gateway-secret-1';
const SERIAL = 'SAKURA-BR-003';
const CLIENT = 'sakura-org';
const UID = 'sakura-wearer-03';

/** Presses the SOS and returns the short link of the SMS the server sent for it, as the phone got it. */
async function smsLinkOfSos(request: APIRequestContext): Promise<string> {
  const sent = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: { events: [{ serialNumber: SERIAL, type: 'SOS', at: new Date().toISOString() }] },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const { accessToken } = await signInByApi(request, OWNER);
  let text = '';
  await expect(async () => {
    const list = await request.get(`/v2/alert/list?uid=${UID}&type=SOS_CALL&status=OPEN`, {
      headers: auth(accessToken),
    });
    const [alert] = ((await list.json()) as { alerts: { id: string }[] }).alerts;
    expect(alert).toBeDefined();
    const log = await request.get(`/v2/notifications?alertId=${alert!.id}`, {
      headers: auth(accessToken),
    });
    const sms = (
      (await log.json()) as { notifications: { channel: string; text: string }[] }
    ).notifications.find((n) => n.channel === 'SMS');
    expect(sms?.text).toMatch(/\/a\/[0-9A-Za-z]{7}$/);
    text = sms!.text;
  }).toPass({ timeout: 15_000 });
  // One Japanese segment: 70 UCS-2 characters at most (this server's PUBLIC_URL is its loopback address).
  expect(text.length).toBeLessThanOrEqual(70);
  return new URL(text.split(' ').at(-1)!).pathname;
}

test("signed out, an SMS's short link asks to sign in and then opens the alert's page", async ({
  page,
  request,
}) => {
  const path = await smsLinkOfSos(request);
  await page.goto(path);
  // The guard's sign-in form, which returns to the page asked for.
  const form = loginForm(page);
  await expect(form.email).toBeVisible();
  await form.email.fill(OWNER);
  await form.password.fill(DEMO_PASSWORD);
  await form.password.press('Enter');
  await expect(page).toHaveURL(urlWithPath(`/devices/${CLIENT}/${UID}/alert_histories`));
  await waitForPage(page);
  await expect(
    page.locator('[data-testid="alert-row"][data-type="SOS_CALL"]').first(),
  ).toBeVisible();

  // Another organisation's owner: the link names nothing they may see.
  await signIn(page, request, 'org-owner@example.com');
  for (const lng of ['ja', 'en'] as const) {
    await useLanguage(page, lng);
    for (const width of [1280, 360]) {
      await setWidth(page, width);
      await page.goto(path);
      await settle(page);
      await expect(page.getByTestId('alert-link-not-found')).toBeVisible();
      expect(page.url()).toContain(path);
      expect(await auditView(page, `${lng} ${width}`)).toEqual([]);
      await page.screenshot({
        path: `test-results/alert-link-${lng}-${width}.png`,
        fullPage: true,
      });
    }
  }
});
