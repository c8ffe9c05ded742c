import { clickUntil } from '../support/actions.js';
import type { APIRequestContext } from '@playwright/test';
import { auditView, setWidth, settle, useLanguage } from '../support/a11y.js';
import { roleCase } from '../support/roles.js';
import { signIn, urlWithPath, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';

/*
 * /settings/gateways against the real server: an owner registers a gateway, sees its credential once (copy button, QR
 * code), the credential really works for the gateway API, a rotation shows a new one and the old one is refused at
 * once; the gateway's detail shows it online with its environment; deleting it refuses the credential. The gateway
 * made here is deleted again, so the other files see the demo's gateways only.
 */

async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 80): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** A batch from the gateway itself, with its credential: the status the server answers. */
async function batchStatus(
  request: APIRequestContext,
  gatewayId: string,
  credential: string,
  withEnvironment = false,
): Promise<number> {
  const environment = withEnvironment
    ? [0, 1, 2].map((i) => ({
        at: new Date(Date.now() - (2 - i) * 60_000).toISOString(),
        temperature: 30 + i,
        humidity: 60,
        wbgt: 27 + i,
      }))
    : [];
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: `Gateway ${gatewayId}:${credential}` },
    data: { environment },
  });
  return res.status();
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('an owner registers a gateway, copies the credential shown once, rotates it, renames and moves it, and deletes the gateway', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const name = `E2Eゲートウェイ ${Date.now()}`;
  const serial = `E2E-GW-${Date.now()}`;
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto('/settings/gateways');
  await waitForPage(page);

  // The contract is checked before sending: an empty form names both fields.
  await page.getByTestId('gateway-register-submit').click();
  await expect(page.getByTestId('gateway-register-serialNumber')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page.getByTestId('gateway-register-name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByTestId('gateway-register-type').selectOption('SMARTPHONE');
  await page.getByTestId('gateway-register-group').selectOption('demo-group-1');
  await page.getByTestId('gateway-register-serialNumber').fill(serial);
  await page.getByTestId('gateway-register-name').fill(name);
  await page.getByTestId('gateway-register-submit').click();

  const dialog = page.getByTestId('connection-dialog');
  await expect(dialog).toBeVisible();
  const credential = await dialog.getByTestId('connection-credential').inputValue();
  const gatewayId = (await dialog.getByTestId('connection-gateway-id').textContent()) ?? '';
  expect(credential.length).toBeGreaterThan(30);
  expect(gatewayId).toMatch(/^gw-/);
  await expect(dialog.getByTestId('connection-mqtt-topic')).toContainText(gatewayId);
  await expect(dialog.getByTestId('connection-qr')).toBeVisible();
  expect(await auditView(page, 'connection dialog ja 1280px')).toEqual([]);

  await dialog.getByTestId('connection-copy').click();
  await expect(dialog.getByTestId('connection-copy-status')).toHaveText('コピーしました。');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(credential);

  // Escape does not lose it; only the button closes it, and then the credential is nowhere on the page.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('connection-done').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('body')).not.toContainText(credential);

  // The credential is the gateway's: its batch (with environment readings) is accepted.
  expect(await batchStatus(request, gatewayId, credential, true)).toBe(200);

  const row = page.getByTestId('gateway-settings-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.getByTestId('gateway-rotate-open').click();
  await page.getByTestId('gateway-rotate-confirm').click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('新しい認証情報');
  const rotated = await dialog.getByTestId('connection-credential').inputValue();
  expect(rotated).not.toBe(credential);
  await dialog.getByTestId('connection-done').click();
  // The old credential is refused at once; the new one works.
  expect(await batchStatus(request, gatewayId, credential)).toBe(401);
  expect(await batchStatus(request, gatewayId, rotated)).toBe(200);

  // Its detail: online, in its group, with the environment it sent and its chart.
  await page.getByTestId('gateway-table').getByRole('link', { name }).click();
  await expect(page).toHaveURL(urlWithPath(`/gateways/demo-org/${gatewayId}`));
  await expect(page.getByTestId('page-heading')).toHaveText(name);
  await expect(page.getByTestId('gateway-facts').getByTestId('gateway-status')).toHaveAttribute(
    'data-status',
    'online',
  );
  await expect(page.getByTestId('gateway-environment-latest')).toContainText('32.0 °C');
  await expect(page.getByTestId('environment-chart')).toBeVisible();
  await expect(page.getByTestId('gateway-no-bracelets')).toBeVisible();

  await page.getByTestId('gateway-manage-link').click();
  await waitForPage(page);
  // Renamed and moved to the second site; the table says so.
  await row.getByTestId('gateway-edit-open').click();
  const edit = page.getByTestId('gateway-edit-dialog');
  await edit.getByTestId('gateway-edit-name').fill(`${name} 東`);
  await edit.getByTestId('gateway-edit-group').selectOption('demo-group-2');
  await edit.getByTestId('gateway-edit-submit').click();
  await expect(edit).toBeHidden();
  const renamed = page.getByTestId('gateway-row').filter({ hasText: `${name} 東` });
  await expect(renamed).toContainText('第二現場');
  await row.getByTestId('gateway-delete-open').click();
  const remove = page.getByTestId('gateway-delete-dialog');
  await expect(remove.getByTestId('gateway-delete-bracelets')).toContainText('0');
  await remove.getByTestId('gateway-delete-confirm').click();
  await expect(remove).toBeHidden();
  await expect(row).toHaveCount(0);
  expect(await batchStatus(request, gatewayId, rotated)).toBe(401);
});

test.describe('at 360 px with the keyboard', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('registering through the keyboard shows the credential, and the dialog closes through its button', async ({
    page,
    request,
  }) => {
    const name = `E2E KB ${Date.now()}`;
    await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
    await page.goto('/settings/gateways');
    await waitForPage(page);
    await tabTo(page, page.getByTestId('gateway-register-serialNumber'));
    await page.keyboard.type(`E2E-KB-${Date.now()}`);
    await page.keyboard.press('Tab');
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('connection-dialog');
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByTestId('connection-copy'));
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('connection-copy-status')).toHaveText('コピーしました。');
    await tabTo(page, dialog.getByTestId('connection-done'));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // Retired again with the keyboard.
    const row = page.getByTestId('gateway-settings-row').filter({ hasText: name });
    await tabTo(page, row.getByTestId('gateway-delete-open'), 200);
    await page.keyboard.press('Enter');
    const remove = page.getByTestId('gateway-delete-dialog');
    await tabTo(page, remove.getByTestId('gateway-delete-confirm'));
    await page.keyboard.press('Enter');
    await expect(row).toHaveCount(0);
  });
});

test('an unknown address shows a not-found page that leads home; the settings pages link /groups', async ({
  page,
  request,
}) => {
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto('/no-such-page');
  await expect(page.getByTestId('page-heading')).toHaveText('ページが見つかりません');
  await expect(page.locator('main')).not.toContainText('準備中');
  await clickUntil(page.getByTestId('not-found-home'), async () =>
    new URL(page.url()).pathname.endsWith('/devices'),
  );
  await expect(page).toHaveURL(urlWithPath('/devices'));

  await page.goto('/settings/admins');
  await waitForPage(page);
  await page.getByTestId('settings-nav').getByRole('link', { name: 'グループの状況' }).click();
  await expect(page).toHaveURL(urlWithPath('/groups'));
  await expect(page.getByTestId('group-card').first()).toBeVisible();
});

test('platform staff see an organisation with its counts, its gateways and one gateway', async ({
  page,
  request,
}) => {
  await signIn(page, request, roleCase('ALL_OWNER').email);
  await page.goto('/organization');
  await waitForPage(page);
  const demo = page.getByTestId('organization-row').filter({ hasText: 'デモ建設株式会社' });
  await expect(demo.getByTestId('organization-open-alerts')).toHaveText(/^\d+$/);
  await clickUntil(demo.getByRole('link'), async () =>
    urlWithPath('/organization/demo-org').test(page.url()),
  );
  await expect(page.getByTestId('page-heading')).toHaveText('デモ建設株式会社');
  await expect(page.getByTestId('organization-groups')).toContainText('第一現場');
  await expect(page.getByTestId('organization-stat-wearers')).toHaveText(/^\d+$/);
  await clickUntil(
    page.getByTestId('gateway-table').locator('a[href$="/organization/demo-org/demo-gateway-1"]'),
    async () => urlWithPath('/organization/demo-org/demo-gateway-1').test(page.url()),
  );
  await expect(page.getByTestId('gateway-facts')).toBeVisible();
});

/*
 * Issue 34 item 3: a native gateway sends a reading and an SOS for a mistyped serial (lower case, one digit too
 * many); the server refuses what it cannot store, and the gateway's page lists it grouped, with its count, the last
 * time and "did you mean DEMO-BR-001?", in Japanese and English, at 1,280 and 360 px; the list marks the gateway.
 */
test('a refused reading is listed on its gateway page, grouped, with a suggestion (ja, en, 1280 and 360 px)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const session = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const staff = { authorization: `Bearer ${session.accessToken}` };
  const name = `E2E 拒否 ${Date.now()}`;
  const registered = await request.post('/v2/gateway', {
    headers: staff,
    data: {
      clientId: 'demo-org',
      type: 'STATIONARY',
      serialNumber: `E2E-REF-${Date.now()}`,
      name,
    },
  });
  expect(registered.status()).toBe(201);
  const { gatewayId, credential } = (
    (await registered.json()) as { connection: { gatewayId: string; credential: string } }
  ).connection;
  const gatewayAuth = { authorization: `Gateway ${gatewayId}:${credential}` };
  try {
    // A Bearer token where the gateway's own belongs is named as such.
    const bearer = await request.post('/gateway/v1/batches', { headers: staff, data: {} });
    expect(bearer.status()).toBe(401);
    expect(((await bearer.json()) as { code: string }).code).toBe('GATEWAY_AUTHORIZATION_SCHEME');

    const at = new Date(Date.now() - 60_000).toISOString();
    const sent = await request.post('/gateway/v1/batches', {
      headers: gatewayAuth,
      data: {
        readings: [{ serialNumber: 'demo-br-0001', at, heartRate: 72 }],
        events: [{ serialNumber: 'demo-br-0001', type: 'SOS', at }],
      },
    });
    expect(sent.status()).toBe(200);
    const answer = (await sent.json()) as { rejected: { reason: string }[] };
    // The reading is refused; an SOS may open an "unassigned device" alert instead (issue 34 item 1).
    const refused = answer.rejected.filter((r) => r.reason === 'unknown bracelet DEMO-BR-0001');
    expect(refused.length).toBeGreaterThanOrEqual(1);

    for (const lng of ['ja', 'en'] as const) {
      await useLanguage(page, lng);
      for (const width of [1280, 360]) {
        await setWidth(page, width);
        await page.goto(`/gateways/demo-org/${gatewayId}`);
        await settle(page);
        const row = page.getByTestId('gateway-refusal-row').filter({ hasText: 'DEMO-BR-0001' });
        await expect(row.getByTestId('gateway-refusal-line')).toContainText(
          `${refused.length} × ${lng === 'ja' ? '未登録のブレスレット' : 'unknown bracelet'} DEMO-BR-0001`,
        );
        await expect(row.getByTestId('gateway-refusal-suggestion')).toContainText(
          lng === 'ja' ? 'DEMO-BR-001 の入力ミスではありませんか' : 'Did you mean DEMO-BR-001?',
        );
        await expect(
          page.getByTestId('gateway-facts').getByTestId('gateway-refusing-badge'),
        ).toBeVisible();
        expect(await auditView(page, `gateway refusals ${lng} ${width}px`)).toEqual([]);
        await page.screenshot({
          path: `test-results/gateway-refusals-${lng}-${width}.png`,
          fullPage: true,
        });
      }
    }
    // The gateway list marks it while refusals continue.
    await page.goto('/gateways');
    await settle(page);
    await expect(
      page
        .getByTestId('gateway-row')
        .filter({ hasText: name })
        .getByTestId('gateway-refusing-badge'),
    ).toBeVisible();
  } finally {
    await request.delete(`/v2/gateway/${gatewayId}`, { headers: staff });
  }
});
