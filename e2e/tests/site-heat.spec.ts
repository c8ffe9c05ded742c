import type { APIRequestContext } from '@playwright/test';
import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import { roleCase } from '../support/roles.js';
import { signIn } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/*
 * The site heat level against the real server: a gateway of its own (registered here, deleted at the end, so no
 * demo wearer's readings take its WBGT) sends WBGT 32 readings spread over the enter window; /devices, already open,
 * shows the site's DANGER badge from the live stream, and shows it in Japanese and English at 1,280 and 360 px with
 * no critical or serious axe finding and no sideways scrolling.
 */

/** Fifteen readings a minute apart up to now: longer than the 10-minute enter window. */
async function sendHotReadings(
  request: APIRequestContext,
  gatewayId: string,
  credential: string,
  wbgt: number,
): Promise<void> {
  const environment = Array.from({ length: 15 }, (_, i) => ({
    at: new Date(Date.now() - (14 - i) * 60_000).toISOString(),
    temperature: 35,
    humidity: 60,
    wbgt,
  }));
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: `Gateway ${gatewayId}:${credential}` },
    data: { environment },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('a hot site shows its DANGER badge on /devices, live, in ja and en, axe-clean at 1280 and 360 px', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const session = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const bearer = { authorization: `Bearer ${session.accessToken}` };
  const name = `E2E 暑さ計 ${Date.now()}`;
  const registered = await request.post('/v2/gateway', {
    headers: bearer,
    data: {
      clientId: DEMO_CLIENT,
      type: 'STATIONARY',
      serialNumber: `E2E-HEAT-${Date.now()}`,
      name,
      groupId: 'demo-group-2',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { gateway, connection } = (await registered.json()) as {
    gateway: { id: string };
    connection: { credential: string };
  };
  try {
    // The page is open before the heat: the badge comes with the live stream's siteHeat frame, not a reload.
    await useLanguage(page, 'ja');
    await page.goto('/devices');
    await settle(page);
    await sendHotReadings(request, gateway.id, connection.credential, 32);
    const site = page.getByTestId('site-heat-site').filter({ hasText: name });
    await expect(site.getByTestId('site-heat-badge')).toHaveAttribute('data-level', 'DANGER', {
      timeout: 20_000,
    });

    const failures: string[] = [];
    for (const lng of LANGUAGES) {
      await useLanguage(page, lng);
      for (const width of WIDTHS) {
        await setWidth(page, width);
        await page.goto('/devices');
        await settle(page);
        const badge = page
          .getByTestId('site-heat-site')
          .filter({ hasText: name })
          .getByTestId('site-heat-badge');
        await expect(badge).toHaveAttribute('data-level', 'DANGER');
        await expect(badge).toHaveText(lng === 'ja' ? '危険WBGT 32.0' : 'DangerWBGT 32.0');
        await expect(
          page.getByRole('heading', {
            name: lng === 'ja' ? '現場の暑さレベル' : 'Site heat level',
          }),
        ).toBeVisible();
        failures.push(...(await auditView(page, `/devices ${lng} ${width}px`)));
        await page.screenshot({ path: test.info().outputPath(`devices-${lng}-${width}.png`) });
      }
    }
    // The same site on its group's card on /groups and on the group's heat-rule page (now, and this month's change).
    await useLanguage(page, 'ja');
    await setWidth(page, 1280);
    await page.goto('/groups');
    await settle(page);
    const card = page.getByTestId('group-card').filter({ hasText: '第二現場' });
    await expect(
      card.getByTestId('site-heat-site').filter({ hasText: name }).getByTestId('site-heat-badge'),
    ).toHaveAttribute('data-level', 'DANGER');
    failures.push(...(await auditView(page, '/groups ja 1280px')));
    await page.screenshot({ path: test.info().outputPath('groups-ja-1280.png') });
    await page.goto('/groups/demo-group-2/heat-rule');
    await settle(page);
    await expect(
      page
        .getByTestId('site-heat-now')
        .getByTestId('site-heat-site')
        .filter({ hasText: name })
        .getByTestId('site-heat-badge'),
    ).toHaveAttribute('data-level', 'DANGER');
    const change = page
      .getByTestId('site-heat-change')
      .filter({ hasText: name })
      .getByTestId('site-heat-badge');
    await expect(change).toHaveText('危険WBGT 32.0');
    failures.push(...(await auditView(page, '/groups/demo-group-2/heat-rule ja 1280px')));
    await page.screenshot({
      path: test.info().outputPath('heat-rule-ja-1280.png'),
      fullPage: true,
    });
    expect(failures).toEqual([]);
  } finally {
    await request.delete(`/v2/gateway/${gateway.id}`, { headers: bearer });
  }
});
