import { auditView, LANGUAGES, setWidth, useLanguage, WIDTHS } from '../support/a11y.js';
import { confirmOpenAlerts } from '../support/api.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { bracelet, DEMO_CLIENT, wearerUid } from './live-gateway.js';

// Issue 34 item 6: values that stopped arriving look stale, and a console whose live stream is down
// says so. Demo wearer 8 is this file's alone (no other story sends for it: 12, used here before, is
// phone-live-views.spec.ts's, whose fresh readings made this story's 13-minute-old value current in the whole suite).
const WEARER = 8;
const GATEWAY = 'Gateway demo-gateway-1:demo-gateway-secret-1';
/** The console's live stream (GET /v3/live?ticket=…), not its ticket request. */
const LIVE_STREAM = /\/v3\/live\?ticket=/;

const TEXTS = {
  ja: {
    stale: /118 bpm · 13 分前/,
    banner: /ライブ更新が止まっています/,
    reload: 'ページを再読み込み',
  },
  en: {
    stale: /118 bpm · 13 minutes ago/,
    banner: /Live updates stopped/,
    reload: 'Reload the page',
  },
} as const;

test('values 13 minutes old are greyed with their age on /devices and the wearer page; a console whose stream is down for 30 s shows a banner (ja, en, axe, 360 px)', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  // The wearer's last reading, 13 minutes ago (a gateway resending its buffer after an outage).
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: {
      readings: [
        {
          serialNumber: bracelet(WEARER),
          at: new Date(Date.now() - 13 * 60_000).toISOString(),
          heartRate: 118,
          skinTemperature: 35.1,
          worn: true,
          battery: 64,
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { accessToken } = await signIn(page, request, 'org-owner@example.com');
  const failures: string[] = [];
  try {
    for (const lng of LANGUAGES) {
      await useLanguage(page, lng);
      await setWidth(page, 1280);
      await page.goto('/devices');
      await waitForPage(page);
      const row = page.locator(`[data-testid="wearer-row"][data-uid="${wearerUid(WEARER)}"]`);
      const heartRate = row.getByTestId('live-heart-rate').locator('[data-stale="true"]');
      await expect(heartRate).toHaveText(TEXTS[lng].stale);
      // Greyed, not the current values' dark text.
      await expect(heartRate).toHaveClass(/text-slate-500/);

      await page.goto(`/devices/${DEMO_CLIENT}/${wearerUid(WEARER)}`);
      await waitForPage(page);
      await expect(
        page.getByTestId('wearer-latest').locator('[data-stale="true"]').first(),
      ).toHaveText(TEXTS[lng].stale);

      // The live stream cannot connect (a proxy dropping it): after 30 s the banner says so.
      await page.route(LIVE_STREAM, (route) => route.abort());
      await page.goto('/devices');
      await waitForPage(page);
      const banner = page.getByTestId('live-down-banner');
      await expect(banner).toBeVisible({ timeout: 60_000 });
      await expect(banner).toHaveAttribute('role', 'alert');
      await expect(banner).toContainText(TEXTS[lng].banner);
      // Reachable by keyboard: the reload button takes focus.
      const reload = banner.getByRole('button', { name: TEXTS[lng].reload });
      await reload.focus();
      await expect(reload).toBeFocused();
      for (const width of WIDTHS) {
        await setWidth(page, width);
        failures.push(...(await auditView(page, `/devices ${lng} ${width}px, stream down`)));
        await page.screenshot({ path: `test-results/pipe-watch-${lng}-${width}.png` });
      }
      await page.unroute(LIVE_STREAM);
    }
  } finally {
    await confirmOpenAlerts(request, accessToken, wearerUid(WEARER), 'DISCONNECTION');
  }
  expect(failures).toEqual([]);
});
