import type { APIRequestContext } from '@playwright/test';
import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import { reloadUntilFlushed, signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

/**
 * Personal users' pages against the real server, with readings sent through the real gateway API
 * (demo gateways from apps/server/src/db/seed/demo-data.ts). Wearers 1, 2 and 20 are used only here.
 */
const GATEWAYS = {
  1: 'Gateway demo-gateway-1:demo-gateway-secret-1',
  2: 'Gateway demo-gateway-2:demo-gateway-secret-2',
} as const;

/**
 * When the 30 readings end: now, unless the half hour before now crosses noon in Tokyo (the browser's zone),
 * where one sleep "night" ends and the next begins; then one minute before noon, so all 30 fall in one night.
 */
function lastReadingAt(): number {
  const now = Date.now();
  const JST_MS = 9 * 3_600_000;
  const sinceNoon = (((now + JST_MS) % 86_400_000) - 12 * 3_600_000 + 86_400_000) % 86_400_000;
  return sinceNoon < 30 * 60_000 ? now - sinceNoon - 60_000 : now;
}

/** 30 readings a minute apart up to now: sleep DEEP 10 min, LIGHT 10 min, AWAKE 10 min, 100 steps each, stress HIGH. */
async function sendDay(
  request: APIRequestContext,
  wearer: number,
  heartRate: number,
  skinTemperature: number,
): Promise<void> {
  const now = lastReadingAt();
  const serialNumber = `DEMO-BR-${String(wearer).padStart(3, '0')}`;
  const readings = Array.from({ length: 30 }, (_, i) => ({
    serialNumber,
    at: new Date(now - (29 - i) * 60_000).toISOString(),
    heartRate: heartRate + (i % 3),
    skinTemperature,
    worn: true,
    battery: 64,
    steps: 100,
    sleepStage: i < 10 ? 1 : i < 20 ? 2 : 4,
    stressLevel: 'HIGH',
  }));
  const gateway = wearer <= 12 ? GATEWAYS[1] : GATEWAYS[2];
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: gateway },
    data: { readings },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { rejected: unknown[] }).rejected).toEqual([]);
}

test('personal@example.com picks a wearer on /select-device and sees their record from the gateway data', async ({
  page,
  request,
}) => {
  await sendDay(request, 1, 70, 34.4);
  await signIn(page, request, 'personal@example.com');
  await page.goto('/select-device');
  await waitForPage(page);
  await page.getByTestId('device-option').filter({ hasText: '佐藤 健太' }).click();
  await expect(page).toHaveURL(/\/user\/record$/);
  await waitForPage(page);

  await expect(page.getByTestId('selected-device')).toContainText('佐藤 健太');
  const latest = page.getByTestId('record-latest');
  // Opened again until the server's next flush has been (the CI run of 26 Nov 21:32 opened it 1.3 s after the batch).
  await reloadUntilFlushed(page, () =>
    expect(latest.getByTestId('latest-skinTemperature')).toContainText('34.4', { timeout: 1_000 }),
  );
  await expect(latest.getByTestId('latest-battery')).toContainText('64');
  await expect(page.getByTestId('record-heartRate-min')).toHaveText('70 bpm');
  await expect(page.getByTestId('record-heartRate-max')).toHaveText('72 bpm');
  await expect(page.getByTestId('record-chart').locator('canvas')).toBeVisible();

  await page.getByRole('tab', { name: '睡眠' }).click();
  const night = page.getByTestId('sleep-night').first();
  await expect(night.getByTestId('sleep-DEEP_SLEEP')).toHaveText('10分');
  await expect(night.getByTestId('sleep-LIGHT_SLEEP')).toHaveText('10分');
  await expect(night.getByTestId('sleep-AWAKE')).toHaveText('10分');
  // The night drawn (a hypnogram, issue 36): deep, then light, then awake, each one stretch, named in its caption.
  const drawn = page.getByTestId('sleep-hypnogram').first();
  await expect(drawn.locator('figcaption')).toContainText('（睡眠 0時間20分）');
  const stretch = (stage: string) => drawn.locator(`[data-stage="${stage}"]`);
  await expect(stretch('RESTLESS_SLEEP')).toHaveCount(0);
  const lefts: number[] = [];
  for (const stage of ['DEEP_SLEEP', 'LIGHT_SLEEP', 'AWAKE']) {
    await expect(stretch(stage)).toHaveCount(1);
    lefts.push((await stretch(stage).boundingBox())?.x ?? Number.NaN);
  }
  expect(lefts).toEqual([...lefts].sort((x, y) => x - y));
  await page.screenshot({ path: 'test-results/sleep-hypnogram.png', fullPage: true });

  await page.getByRole('tab', { name: 'ストレス' }).click();
  await expect(page.getByTestId('stress-HIGH')).toHaveText('0時間30分');

  // Keyboard: from the focused tab, the arrow key moves to steps.
  await page.getByRole('tab', { name: 'ストレス' }).press('ArrowRight');
  await expect(page.getByRole('tab', { name: '歩数' })).toBeFocused();
  await expect(page.getByTestId('steps-total')).toHaveText('3,000歩');

  // A week is read in 5-minute buckets, yet its maximum is the readings' own (the rollups' max, issue 36).
  await page.getByTestId('record-period-week').click();
  await expect(page.getByTestId('record-period-week')).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('tab', { name: '心拍数' }).click();
  await expect(page.getByTestId('record-heartRate-max')).toHaveText('72 bpm');

  await page.getByTestId('switch-wearer').click();
  await expect(page).toHaveURL(/\/select-device$/);
});

test('personal-self@example.com sees their own record', async ({ page, request }) => {
  await sendDay(request, 20, 90, 35.1);
  await signIn(page, request, 'personal-self@example.com');
  await page.goto('/user/record');
  await waitForPage(page);
  await expect(page.getByTestId('switch-wearer')).toHaveCount(0);
  // As above: the CI run of 27 Nov 10:10 opened it before the flush.
  await reloadUntilFlushed(page, () =>
    expect(page.getByTestId('record-latest').getByTestId('latest-skinTemperature')).toContainText(
      '35.1',
      { timeout: 1_000 },
    ),
  );
  await expect(page.getByTestId('record-heartRate-max')).toHaveText('92 bpm');
  await page.getByRole('tab', { name: 'アラート' }).click();
  await expect(
    page.getByTestId('page-empty').or(page.getByTestId('personal-alerts')),
  ).toBeVisible();

  // In the dark (issue 36), every tab, the hypnogram's among them, passes axe in both languages at both widths.
  await page.emulateMedia({ colorScheme: 'dark' });
  const failures: string[] = [];
  for (const lng of LANGUAGES) {
    await useLanguage(page, lng);
    await setWidth(page, WIDTHS[0]);
    await page.goto('/user/record');
    await waitForPage(page);
    const tabs = page.getByRole('tab');
    const count = await tabs.count();
    expect(count).toBe(6);
    for (let i = 0; i < count; i += 1) {
      await setWidth(page, WIDTHS[0]);
      await tabs.nth(i).click();
      await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
      const name = (await tabs.nth(i).textContent()) ?? String(i);
      if (i === 2) await expect(page.getByTestId('sleep-hypnogram').first()).toBeVisible();
      for (const width of WIDTHS) {
        await setWidth(page, width);
        await settle(page);
        failures.push(...(await auditView(page, `records ${name} ${lng} ${width}px dark`)));
        await page.screenshot({
          path: `test-results/dark-records-${lng}-${width}-${i}.png`,
          fullPage: true,
        });
      }
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
});

test('a family member changes the wearer’s alert settings; they persist after a reload; bad input is refused', async ({
  page,
  request,
}) => {
  await signIn(page, request, 'personal@example.com');
  await page.goto('/select-device');
  await waitForPage(page);
  await page.getByTestId('device-option').filter({ hasText: '鈴木 大輔' }).click();
  await page.goto('/user/settings/alert');
  await waitForPage(page);
  await expect(page.getByTestId('selected-device')).toContainText('鈴木 大輔');
  // Born 1975-09-03: 51 years in late 2026, 208 - 0.7 x 51 = 172.
  await expect(page.getByTestId('max-heart-rate')).toContainText('172 bpm');

  const lower = page.getByLabel('下限（bpm）');
  const upper = page.getByLabel('上限（bpm）');
  await lower.fill('130');
  await upper.fill('120');
  await page.getByTestId('save-settings').click();
  await expect(page.getByTestId('field-error')).toHaveText('上限は下限より大きくしてください。');

  await lower.fill('50');
  await upper.fill('160');
  await page.getByTestId('type-NON_WEARING').uncheck();
  await page.getByTestId('preset-business').click();
  await page.getByTestId('save-settings').click();
  await expect(page.getByText('アラート設定を保存しました。')).toBeVisible();

  await page.reload();
  await waitForPage(page);
  await expect(page.getByLabel('下限（bpm）')).toHaveValue('50');
  await expect(page.getByLabel('上限（bpm）')).toHaveValue('160');
  await expect(page.getByTestId('type-NON_WEARING')).not.toBeChecked();
  await expect(page.getByTestId('preset-business')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('schedule-sunday').getByRole('checkbox')).not.toBeChecked();
});
