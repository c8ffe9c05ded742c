import type { APIRequestContext } from '@playwright/test';
import { signInByApi } from '../support/api.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test, type Page } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/*
 * A wearer's pages against the real server, at 360 px and with the keyboard: the bracelet is paired through the
 * modal, reported by the gateway (the test plays it), its duty cycle changed (pending until the gateway acknowledges
 * it, then applied); the profile's birth date gives the maximum heart rate; a family member is invited.
 */

const GATEWAY_AUTH = 'Gateway demo-gateway-1:demo-gateway-secret-1';

async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function newWearer(request: APIRequestContext, tag: string, bracelet: boolean) {
  const { accessToken } = await signInByApi(request, roleCase('ORGANIZATION_OWNER').email);
  const headers = { authorization: `Bearer ${accessToken}` };
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const name = `装着者 ${tag} ${stamp}`;
  const res = await request.post('/v2/user/wearer', {
    headers,
    data: { clientId: DEMO_CLIENT, name, birthDate: '1970-04-01', groupId: 'demo-group-1' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const serialNumber = `E2E-KB-${stamp}`;
  if (bracelet) {
    const b = await request.post('/v2/device', {
      headers,
      data: { mediromOrganizationId: DEMO_CLIENT, serialNumber },
    });
    expect(b.status(), await b.text()).toBe(201);
  }
  return { uid: ((await res.json()) as { uid: string }).uid, name, serialNumber };
}

async function gatewayBatch(request: APIRequestContext, batch: object): Promise<void> {
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY_AUTH },
    data: batch,
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.use({ viewport: { width: 360, height: 740 } });

test('the bracelet is paired and its duty cycle changed with the keyboard; pending until the gateway acknowledges', async ({
  page,
  request,
}) => {
  const wearer = await newWearer(request, 'K', true);
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto(`/devices/${DEMO_CLIENT}/${wearer.uid}/device_setting`);
  await waitForPage(page);

  await tabTo(page, page.getByTestId('open-pairing'));
  await page.keyboard.press('Enter');
  const modal = page.getByTestId('pairing-modal');
  await expect(modal.getByTestId('pairing-serial')).toBeFocused();
  await page.keyboard.type(wearer.serialNumber);
  await page.keyboard.press('Tab');
  await expect(modal.getByTestId('pairing-gateway')).toBeFocused();
  // Other stories register gateways in the demo organisation too: arrow down to the demo gateway.
  const gatewaySelect = modal.getByTestId('pairing-gateway');
  for (let i = 0; i < 30 && (await gatewaySelect.inputValue()) !== 'demo-gateway-1'; i += 1)
    await page.keyboard.press('ArrowDown');
  await expect(gatewaySelect).toHaveValue('demo-gateway-1');
  await page.keyboard.press('Tab');
  await expect(modal.getByTestId('pairing-device-name')).toBeFocused();
  await page.keyboard.type('キーボードのバンド');
  await page.keyboard.press('Enter');
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('pairing-pending')).toBeVisible();

  // The gateway hears it; the page shows it paired (after a reload here: the 90 s poll is pairing.spec.ts's).
  await gatewayBatch(request, {
    pairings: [{ serialNumber: wearer.serialNumber, at: new Date().toISOString() }],
  });
  await page.reload();
  await waitForPage(page);
  await expect(page.getByTestId('device-paired')).toHaveText(/完了/);
  await expect(page.getByRole('heading', { name: 'キーボードのバンド' })).toBeVisible();

  // 1 minute -> 5 minutes with the arrow keys, saved with Enter: pending until acknowledged.
  await tabTo(page, page.getByTestId('duty-1'));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('duty-5')).toBeChecked();
  await tabTo(page, page.getByTestId('save-device-setting'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('config-status')).toContainText('反映待ち');
  await expect(page.getByTestId('config-status')).toContainText('1分間隔');

  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY_AUTH },
    data: {},
  });
  const pending =
    (
      (await res.json()) as {
        pendingConfig?: { serialNumber: string; version: number; heartRateDutyCycle: number }[];
      }
    ).pendingConfig ?? [];
  const mine = pending.find((p) => p.serialNumber === wearer.serialNumber);
  expect(mine).toMatchObject({ heartRateDutyCycle: 5 });
  await gatewayBatch(request, {
    configAcks: [{ serialNumber: wearer.serialNumber, version: mine?.version }],
  });
  await page.reload();
  await waitForPage(page);
  await expect(page.getByTestId('config-status')).toHaveText('ブレスレットに反映済みです。');
  await expect(page.getByTestId('duty-5')).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('the profile gives the maximum heart rate from the birth date; a family member is invited', async ({
  page,
  request,
}) => {
  const wearer = await newWearer(request, 'P', false);
  await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  await page.goto(`/devices/${DEMO_CLIENT}/${wearer.uid}/config`);
  await waitForPage(page);
  await expect(page.getByTestId('page-heading')).toContainText(wearer.name);

  const birth = page.getByTestId('profile-birth-date');
  await birth.fill('1950-01-01');
  // Born on 1 January: the age is this year minus 1950 all year round.
  const age = new Date().getFullYear() - 1950;
  await expect(page.getByTestId('profile-max-heart-rate')).toContainText(
    `${Math.round(208 - 0.7 * age)} bpm`,
  );
  await tabTo(page, page.getByTestId('save-profile'));
  await page.keyboard.press('Enter');
  await expect(page.getByText('プロフィールを保存しました。')).toBeVisible();
  await page.reload();
  await waitForPage(page);
  await expect(page.getByTestId('profile-birth-date')).toHaveValue('1950-01-01');

  // A name of 101 characters is refused before sending, next to the field.
  await page.getByTestId('profile-name').fill('あ'.repeat(101));
  await page.getByTestId('save-profile').click();
  await expect(page.getByTestId('field-error')).toHaveText('名前は1〜100文字で入力してください。');
  await expect(page.getByTestId('profile-name')).toBeFocused();

  await page.goto(`/devices/${DEMO_CLIENT}/${wearer.uid}/member`);
  await waitForPage(page);
  await expect(page.getByTestId('page-empty')).toBeVisible();
  await page.getByTestId('invite-email').fill('not-an-address');
  await page.getByTestId('send-invite').click();
  await expect(page.getByTestId('invite-email')).toBeFocused();
  const email = `family-${Date.now()}@example.com`;
  await page.getByTestId('invite-email').fill(email);
  await page.getByTestId('send-invite').click();
  await expect(page.getByText(`${email} に招待メールを送りました。`)).toBeVisible();
});
