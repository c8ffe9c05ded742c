import { expect, type APIRequestContext } from '@playwright/test';
import { auditView } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { test } from '../support/test.js';
import { bracelet, DEMO_CLIENT, wearerUid } from './live-gateway.js';

/** Issue 17: an SOS says where. Wearer 14 (no other spec uses it) is heard by the site's stationary gateway. */
const WEARER = 14;
const STATIONARY = 'Gateway demo-gateway-1:demo-gateway-secret-1';

async function send(request: APIRequestContext, batch: object) {
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: STATIONARY },
    data: batch,
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('an SOS names where the wearer was: in the popup, the alert table (ja, en) and on a phone (360 px), axe clean', async ({
  page,
  request,
}) => {
  test.slow(); // four views, each with axe
  const now = Date.now();
  await send(request, {
    readings: [3, 2, 1].map((m) => ({
      serialNumber: bracelet(WEARER),
      at: new Date(now - m * 60_000).toISOString(),
      heartRate: 80,
      rssi: -55,
    })),
  });
  await send(request, {
    events: [{ serialNumber: bracelet(WEARER), type: 'SOS', at: new Date().toISOString() }],
  });

  await signIn(page, request, 'org-owner@example.com');
  await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WEARER)}/alert_histories`);
  await waitForPage(page);
  const sos = page.locator('[data-testid="alert-row"][data-type="SOS_CALL"]').first();
  await expect(sos.getByTestId('alert-place')).toHaveText('場所: 第一現場 · 詰所');
  // The banner names the newest emergency and its place (other tests' SOS may be newer: any place).
  const headline = page.getByTestId('alert-popup-headline');
  await expect(headline).toContainText('SOS発信');
  await expect(headline).toContainText(/(場所|位置|最終受信): /);
  expect(await auditView(page, 'ja 1280')).toEqual([]);

  await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WEARER)}/alert_histories?lng=en`);
  await waitForPage(page);
  await expect(
    page
      .locator('[data-testid="alert-row"][data-type="SOS_CALL"]')
      .first()
      .getByTestId('alert-place'),
  ).toHaveText('Place: 第一現場 · 詰所');
  expect(await auditView(page, 'en 1280')).toEqual([]);

  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await waitForPage(page);
  const card = page
    .locator('[data-alert-id]')
    .filter({ hasText: 'Place: 第一現場 · 詰所' })
    .first();
  await expect(card).toBeVisible();
  expect(await auditView(page, 'en 360')).toEqual([]);
  await page.screenshot({ path: 'test-results/alert-place-en-360.png', fullPage: true });

  await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WEARER)}/alert_histories?lng=ja`);
  await waitForPage(page);
  await expect(
    page.locator('[data-alert-id]').filter({ hasText: '場所: 第一現場 · 詰所' }).first(),
  ).toBeVisible();
  expect(await auditView(page, 'ja 360')).toEqual([]);
  await page.screenshot({ path: 'test-results/alert-place-ja-360.png', fullPage: true });
});
