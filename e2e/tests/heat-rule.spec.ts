import { clickUntil } from '../support/actions.js';
import { signInByApi } from '../support/api.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { bracelet, wearerUid } from './live-gateway.js';

// Both tests write the first site's procedure: run them one after the other, never side by side.
test.describe.configure({ mode: 'serial' });

const GATEWAY = 'Gateway demo-gateway-1:demo-gateway-secret-1';
const PROCEDURE = {
  stopWork: '職長が作業を止め、休憩所へ移す',
  coolBody: '首と脇を保冷剤で冷やし、経口補水液を飲ませる',
  medicalCare: '意識がおかしければ迷わず119番',
  emergencyContacts: '現場代理人 090-1111-2222',
  hospital: { name: 'みなと中央病院', address: '東京都港区芝1-1-1', phone: '03-5555-0101' },
};

test('a heat alert’s confirm dialog shows the site’s procedure, hospital and contacts; the steps ticked are recorded', async ({
  page,
  request,
}) => {
  const owner = await signInByApi(request, 'org-owner@example.com');
  const auth = { authorization: `Bearer ${owner.accessToken}` };
  const put = await request.put('/v2/group/demo-group-1/heatProcedure', {
    headers: auth,
    data: PROCEDURE,
  });
  expect(put.status(), await put.text()).toBe(200);

  // Wearer 6 (first site, 44 years old, sent nothing by other tests): the site's WBGT is 30 and
  // the heart rate stays above 180 - 44 = 136 for ten minutes: HEATSTROKE, the person's own
  // strain (WBGT alone is the site's heat level, not a personal alert).
  const now = Date.now();
  const batch = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: {
      environment: [
        { at: new Date(now - 11 * 60_000).toISOString(), temperature: 33, humidity: 70, wbgt: 30 },
      ],
      readings: Array.from({ length: 10 }, (_, i) => ({
        serialNumber: bracelet(6),
        at: new Date(now - (9 - i) * 60_000).toISOString(),
        heartRate: 142,
        skinTemperature: 36,
        worn: true,
        battery: 80,
      })),
    },
  });
  expect(batch.status(), await batch.text()).toBe(200);
  let alertId = '';
  await expect(async () => {
    const res = await request.get(
      `/v2/alert/list?type=HEATSTROKE&uid=${wearerUid(6)}&notConfirmed=true`,
      { headers: auth },
    );
    const alerts = ((await res.json()) as { alerts: { id: string }[] }).alerts;
    expect(alerts.length).toBeGreaterThan(0);
    alertId = alerts[0]!.id;
  }).toPass({ timeout: 15_000 });
  // The site cools down again: the demo gateway is shared, and other tests' wearers on it must not get heat alerts.
  const cool = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: {
      environment: [
        { at: new Date(Date.now()).toISOString(), temperature: 24, humidity: 50, wbgt: 20 },
      ],
    },
  });
  expect(cool.status(), await cool.text()).toBe(200);

  await signIn(page, request, 'org-general@example.com');
  await page.goto('/alert-histories');
  await waitForPage(page);
  const row = page
    .locator(`[data-alert-id="${alertId}"]`)
    .filter({ has: page.getByTestId('alert-confirm') })
    .first();
  await row.getByTestId('alert-confirm').click();
  const dialog = page.getByRole('dialog');
  const panel = dialog.getByTestId('heat-procedure');
  await expect(panel).toContainText('第一現場 の暑熱対応手順');
  await expect(panel).toContainText(PROCEDURE.stopWork);
  await expect(panel).toContainText(PROCEDURE.coolBody);
  await expect(dialog.getByTestId('heat-hospital')).toContainText('みなと中央病院');
  await expect(dialog.getByTestId('heat-hospital')).toContainText('東京都港区芝1-1-1');
  await expect(dialog.getByRole('link', { name: '03-5555-0101' })).toHaveAttribute(
    'href',
    'tel:0355550101',
  );
  await expect(panel).toContainText('報告先（通知先）');

  await dialog.getByLabel('作業の中止').check();
  await dialog.getByLabel('身体の冷却').check();
  await dialog.getByLabel('理由').selectOption('TREATED');
  await dialog.getByTestId('confirm-submit').click();
  await expect(dialog).toHaveCount(0);

  const list = await request.get(`/v2/alert/list?type=HEATSTROKE&uid=${wearerUid(6)}`, {
    headers: auth,
  });
  const confirmed = (
    (await list.json()) as {
      alerts: { id: string; procedureSteps: string[]; confirmReason: string }[];
    }
  ).alerts.find((a) => a.id === alertId);
  expect(confirmed).toMatchObject({
    procedureSteps: ['STOP_WORK', 'COOL_BODY'],
    confirmReason: 'TREATED',
  });
});

test('/groups/{groupId}/heat-rule: reached from /groups; an owner writes the procedure and hospital with the keyboard; the monthly report shows them', async ({
  page,
  request,
}) => {
  await signIn(page, request, 'org-owner@example.com');
  await page.goto('/groups');
  await waitForPage(page);
  // A live band growing the sticky header can move the link between press and release (CI, 2 Dec).
  await clickUntil(page.getByTestId('group-heat-rule-link').first(), async () =>
    /\/groups\/[^/]+\/heat-rule$/.test(page.url()),
  );
  await waitForPage(page);
  await expect(page).toHaveURL(/\/groups\/[^/]+\/heat-rule$/);
  const form = page.getByTestId('heat-procedure-form');
  await form.getByLabel('1. 作業の中止').fill('職長が作業を止める');
  await form.getByLabel('2. 身体の冷却').fill('日陰で冷やす');
  await form.getByLabel('3. 医療機関の受診').fill('迷わず119番');
  await form.getByLabel('4. 緊急連絡先').fill('現場代理人 090-0000-1111');
  await form.getByLabel('医療機関名').fill('さくら病院');
  await form.getByLabel('住所').fill('東京都中央区2-2-2');
  await form.getByLabel('電話番号').fill('03-1111-2222');
  await form.getByTestId('heat-procedure-save').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('暑熱対応手順を保存しました。')).toBeVisible();
  const report = page.getByTestId('heat-rule-report');
  await expect(report).toContainText('暑熱作業報告');
  await expect(report).toContainText('さくら病院');
  await expect(report).toContainText('該当作業時間（時間）');
});
