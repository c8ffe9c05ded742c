import { readFile } from 'node:fs/promises';
import { expect as baseExpect, type APIRequestContext } from '@playwright/test';
import { auditView, LANGUAGES, setWidth, useLanguage, WIDTHS } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

/*
 * Issue 36 item 6: the care home's night round. The night nurse of さくら介護ホーム opens the round sheet of 本館,
 * finds 石川 正男 asleep (readings sent here, a minute apart, deep sleep), marks him as checked, sees her mark after
 * a reload, and downloads the night's alerts as CSV. The SOS stories press wearers 1-3 at the same time, so nothing
 * here depends on which alerts are open or on the order they put the residents in; no SOS is pressed.
 */
const GROUP = 'sakura-group-1';
const GATEWAY = 'Gateway sakura-gateway-1:sakura-gateway-secret-1';
const RESIDENT = 'sakura-wearer-02';
const NAME = '石川 正男';
const OWNER = '桜井 恵子';
const TEXT = {
  ja: { heading: '夜間巡視', asleep: '睡眠中', mark: `（${NAME} さん）` },
  en: { heading: 'Night round', asleep: 'Asleep', mark: `(${NAME})` },
} as const;
const CSV_HEADER =
  'alert_id,resident_id,resident_name,group_name,type,level,status,opened_at,confirmed_at,confirmed_by,confirm_reason,confirm_note,minutes_to_confirm,closed_at,close_reason';

/** Twenty minutes of deep sleep up to now for the resident, through the group's gateway. */
async function sendSleep(request: APIRequestContext): Promise<void> {
  const now = Date.now();
  const readings = Array.from({ length: 20 }, (_, i) => ({
    serialNumber: 'SAKURA-BR-002',
    at: new Date(now - (19 - i) * 60_000).toISOString(),
    heartRate: 58 + (i % 3),
    worn: true,
    sleepStage: 1,
  }));
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: { readings },
  });
  baseExpect(res.status(), await res.text()).toBe(200);
}

for (const lng of LANGUAGES) {
  test(`${lng}: the round sheet at 360 and 1,280 px, a resident marked as checked, the night's alerts as CSV`, async ({
    page,
    request,
  }) => {
    await sendSleep(request);
    await signIn(page, request, 'sakura-owner@example.com');
    await useLanguage(page, lng);

    // From the group's page, as the night nurse finds it.
    await page.goto('/groups');
    await waitForPage(page);
    await page.getByTestId('group-night-round-link').first().click();
    await expect(page).toHaveURL(new RegExp(`/groups/${GROUP}/round$`));
    await waitForPage(page);
    await expect(page.getByTestId('page-heading')).toContainText(TEXT[lng].heading);

    const row = page.getByTestId(`round-row-${RESIDENT}`);
    // The readings reach the latest values with the server's next flush (2 s): read the sheet again until then.
    await expect(async () => {
      await page.reload();
      await waitForPage(page);
      await expect(page.getByTestId(`round-state-${RESIDENT}`)).toHaveText(TEXT[lng].asleep, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText(NAME);

    for (const width of WIDTHS) {
      await setWidth(page, width);
      await page.screenshot({
        path: `test-results/round-${lng}-${width}.png`,
        fullPage: true,
      });
      expect(await auditView(page, `/groups/${GROUP}/round ${lng} ${width}px`)).toEqual([]);
    }

    // On paper (A4 portrait, 210 mm): the sheet alone, one line per wearer, nothing wider than the page.
    await setWidth(page, 794);
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `test-results/round-${lng}-print.png`, fullPage: true });
    await expect(page.getByTestId(`round-mark-${RESIDENT}`)).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      794,
    );
    await page.emulateMedia({ media: 'screen' });

    // Marked by keyboard: the button names the resident. (The other language's story marks the same resident at
    // the same time, so this one looks for its own mark.)
    const button = page.getByRole('button', { name: TEXT[lng].mark });
    await button.focus();
    const saved = page.waitForResponse(
      (res) =>
        res.url().includes(`/v2/group/${GROUP}/nightRound/marks`) &&
        res.request().method() === 'POST',
    );
    await page.keyboard.press('Enter');
    const answer = await saved;
    expect(answer.status()).toBe(201);
    const { id } = (await answer.json()) as { id: string };
    const mine = page.getByTestId(`round-marks-${RESIDENT}`).locator(`[data-mark-id="${id}"]`);
    await expect(mine).toContainText(OWNER);

    await page.reload();
    await waitForPage(page);
    await expect(mine).toContainText(OWNER);
    await expect(mine.locator('time')).toHaveText(/^\d\d:\d\d$/);
    await page.screenshot({ path: `test-results/round-${lng}-marked.png`, fullPage: true });

    const download = page.waitForEvent('download');
    await page.getByTestId('round-csv').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^night-round-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile(await file.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').slice(1).split('\r\n')[0]).toBe(CSV_HEADER);
  });
}
