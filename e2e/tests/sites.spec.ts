import { expect, type Page } from '@playwright/test';
import { auditView, settle } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { signIn } from '../support/session.js';
import { greyPng } from '../support/png.js';
import { test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/**
 * Issue 17, item 1: an owner makes a site, uploads its PNG plan and places a gateway on it with
 * the keyboard; the marker shows where; axe clean and no sideways scrolling in ja and en at 1,280
 * and 360 px. The gateway is this spec's own (other specs read the demo gateways' zone names).
 */

/** A real PNG: a light floor with a darker wall band, 480 x 240. */
const planPng = (width = 480, height = 240): Buffer =>
  greyPng(width, height, (_x, y) => (y % 60 < 4 ? 0x60 : 0xf0));

async function openSite(page: Page, siteName: string, lng: 'ja' | 'en') {
  await page.goto(`/settings/sites?lng=${lng}`);
  await settle(page);
  await page
    .getByTestId('site-list')
    .getByRole('button', { name: new RegExp(siteName) })
    .click();
  await expect(page.getByTestId('site-detail').getByRole('heading', { level: 3 })).toHaveText(
    siteName,
  );
  await expect(page.getByTestId('site-plan').locator('img')).toBeVisible();
}

test('an owner makes a site, uploads its plan and places a gateway by keyboard and by drag and drop; ja and en at 1280 and 360 px, axe clean', async ({
  page,
  request,
}) => {
  test.slow(); // four views, each with axe
  const suffix = Date.now().toString(36);
  const siteName = `本館 ${suffix}`;
  const gatewayName = `受付 ${suffix}`;
  const { accessToken } = await signInByApi(request, 'org-owner@example.com');
  const registered = await request.post('/v2/gateway', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      clientId: DEMO_CLIENT,
      type: 'STATIONARY',
      serialNumber: `E2E-SITE-${suffix}`.toUpperCase(),
      name: gatewayName,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);

  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/settings/sites?lng=ja');
  await settle(page);
  await page.getByLabel('拠点名').fill(siteName);
  await page.getByRole('button', { name: '拠点を追加' }).click();
  const detail = page.getByTestId('site-detail');
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(siteName);

  await page.getByTestId('plan-file').setInputFiles({
    name: 'plan.png',
    mimeType: 'image/png',
    buffer: planPng(),
  });
  await expect(page.getByRole('img', { name: `${siteName}の平面図` })).toBeVisible();

  // The keyboard way: the gateway's Place button, its fields and Enter.
  const placeButton = detail.getByRole('button', { name: `${gatewayName}を配置` });
  await placeButton.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: `${gatewayName}の位置` });
  await form.getByLabel('横（左から %、0〜100）').focus();
  await page.keyboard.type('40');
  await page.keyboard.press('Tab');
  await page.keyboard.type('60');
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  const marker = page
    .getByTestId('site-plan')
    .getByRole('button', { name: new RegExp(`^${gatewayName}: 左から 40%、上から 60%`) });
  await expect(marker).toBeVisible();
  // Where it is drawn: 40 % across and 60 % down the plan.
  const [planBox, markerBox] = [
    await page.getByTestId('site-plan').boundingBox(),
    await marker.boundingBox(),
  ];
  const centreX = (markerBox!.x + markerBox!.width / 2 - planBox!.x) / planBox!.width;
  const centreY = (markerBox!.y + markerBox!.height / 2 - planBox!.y) / planBox!.height;
  expect(centreX).toBeCloseTo(0.4, 1);
  expect(centreY).toBeCloseTo(0.6, 1);

  // Drag and drop: the marker itself, moved a fifth across and a third down the plan.
  const plan = page.getByTestId('site-plan');
  const box = (await plan.boundingBox())!;
  // A drag on a loaded machine can miss its drop (CI, 2 Dec); dropped again at the same place until it takes.
  const atFifth = plan.getByRole('button', {
    name: new RegExp(`^${gatewayName}: 左から (19|20|21)(\\.\\d)?%`),
  });
  await expect(async () => {
    if (!(await atFifth.isVisible()))
      await marker.dragTo(plan, { targetPosition: { x: box.width * 0.2, y: box.height * 0.3 } });
    await expect(atFifth).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  // And from the list below the plan: its handle dropped three quarters across. The other specs
  // register gateways in this organisation, so the list can run far below the fold; the window is
  // made tall enough to hold both ends of the drag, as a user would scroll.
  const handle = page
    .getByTestId('site-gateway')
    .filter({ hasText: gatewayName })
    .getByTestId('gateway-drag');
  await page.evaluate(() => window.scrollTo(0, 0));
  const handleBox = (await handle.boundingBox())!;
  await page.setViewportSize({ width: 1280, height: Math.ceil(Math.max(800, handleBox.y + 120)) });
  const atThreeQuarters = plan.getByRole('button', {
    name: new RegExp(`^${gatewayName}: 左から (74|75|76)(\\.\\d)?%`),
  });
  await expect(async () => {
    if (!(await atThreeQuarters.isVisible()))
      await handle.dragTo(plan, { targetPosition: { x: box.width * 0.75, y: box.height * 0.5 } });
    await expect(atThreeQuarters).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  // And back by keyboard, so the views below show 40 %, 60 %.
  await detail.getByRole('button', { name: `${gatewayName}を配置` }).click();
  await form.getByLabel('横（左から %、0〜100）').fill('40');
  await form.getByLabel('縦（上から %、0〜100）').fill('60');
  await form.getByRole('button', { name: '位置を保存' }).click();
  await expect(marker).toBeVisible();

  const failures: string[] = [];
  for (const lng of ['ja', 'en'] as const) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await openSite(page, siteName, lng);
      await expect(
        page
          .getByTestId('site-gateway')
          .filter({ hasText: gatewayName })
          .getByText(lng === 'ja' ? 'この平面図の 40%, 60%' : 'On this plan at 40 %, 60 %'),
      ).toBeVisible();
      failures.push(...(await auditView(page, `${lng} ${width}`)));
      await page.screenshot({ path: `test-results/sites-${lng}-${width}.png`, fullPage: true });
    }
  }
  expect(failures).toEqual([]);
});
