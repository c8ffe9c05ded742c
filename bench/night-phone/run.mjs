// night-phone: the console on a phone-class CPU (issue 36): Chromium at 360x740 with its CPU slowed 4x (the DevTools
// protocol's Emulation.setCPUThrottlingRate), against the built app (server and web) in a child process on PGlite.
// Each run, in a fresh browser context signed in as the organisation's owner:
//   first row: from navigating to /devices to the first wearer row on screen;
//   SOS to banner: once the live stream is open, a gateway's SOS batch (HTTP, as the hardware sends it) until the
//   alert banner with its 確認 button is on screen, measured from just before the batch is sent.
// Usage: npm run bench -- night-phone [--wearers 60] [--runs 5] [--throttle 4]
// Target: none given by the issue; the figures are recorded (median and worst) in bench/RESULTS.md.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import {
  SERVER_MAIN,
  WEB_DIST,
  freePort,
  median,
  printMachine,
  requireBuild,
  serverEnv,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import {
  OWNER_EMAIL,
  OWNER_PASSWORD,
  gatewayCredential,
  openFreshDb,
  seedOrganization,
} from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    wearers: { type: 'string', default: '60' },
    runs: { type: 'string', default: '5' },
    throttle: { type: 'string', default: '4' },
  },
});
const WEARERS = Number(values.wearers);
const RUNS = Number(values.runs);
const THROTTLE = Number(values.throttle);
requireBuild(SERVER_MAIN, 'the server');
requireBuild(join(WEB_DIST, 'index.html'), 'the web app');
printMachine();

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-night-phone-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ dataDir });
await seedOrganization(fresh.db, { wearers: WEARERS, openAlerts: 0 });
await fresh.db.close();
console.log(`seeded ${WEARERS} wearers; CPU slowed ${THROTTLE}x; 360x740`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startServer(serverEnv(port, dataDir, { SEED_DEMO: 'false' }));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const loads = [];
const banners = [];
try {
  await waitForReady(baseUrl, server);
  const res = await fetch(`${baseUrl}/v2/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OWNER_EMAIL, password: OWNER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const tokens = await res.json();
  const user = await (
    await fetch(`${baseUrl}/v2/user`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    })
  ).json();
  const storage = {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    loginTime: String(Date.now()),
    refreshExpiresIn: String(tokens.refreshExpiresIn),
    userInfo: JSON.stringify(user),
    i18nextLng: 'ja',
  };

  for (let run = 0; run < RUNS; run++) {
    const load = loadavg()[0];
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript((entries) => {
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
      const w = /** @type {any} */ (window);
      // The first wearer row; then, once the bench names the wearer whose SOS it sends (__expect), the banner
      // naming them with its 確認 (an earlier run's SOS, still open, may hold the banner before).
      const watch = () => {
        if (w.__firstRow === undefined && document.querySelector('[data-testid="wearer-row"]'))
          w.__firstRow = performance.now();
        const headline = document.querySelector('[data-testid="alert-popup-headline"]');
        if (
          w.__expect &&
          headline?.textContent?.includes(w.__expect) &&
          document.querySelector('[data-testid="alert-popup-confirm"]')
        ) {
          w.__banner = performance.now();
          return;
        }
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    }, storage);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });

    await page.goto(`${baseUrl}/devices`);
    await page.waitForFunction(() => /** @type {any} */ (window).__firstRow !== undefined, null, {
      timeout: 120_000,
    });
    const firstRowMs = await page.evaluate(() => /** @type {any} */ (window).__firstRow);
    // The live stream open (not the polling fallback): the SOS reaches the page as it would at night.
    await page
      .getByTestId('live-status')
      .filter({ hasText: 'リアルタイム更新中' })
      .waitFor({ timeout: 60_000 });

    // A different wearer each run, on their own gateway (bench/summary/seed.mjs: 100 wearers per gateway).
    const n = 1 + ((run * 7) % WEARERS);
    const gateway = 1 + Math.floor((n - 1) / 100);
    const sentAt = await page.evaluate(
      (name) => {
        /** @type {any} */ (window).__expect = name;
        return performance.now();
      },
      `装着者 ${String(n).padStart(5, '0')}`,
    );
    const sos = await fetch(`${baseUrl}/gateway/v1/batches`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Gateway bgw-${gateway}:${gatewayCredential(gateway)}`,
      },
      body: JSON.stringify({
        events: [{ serialNumber: `BBR-${n}`, type: 'SOS', at: new Date().toISOString() }],
      }),
    });
    const answer = await sos.json();
    if (sos.status !== 200 || answer.rejected?.length)
      throw new Error(`SOS refused: ${sos.status} ${JSON.stringify(answer)}`);
    await page.waitForFunction(() => /** @type {any} */ (window).__banner !== undefined, null, {
      timeout: 60_000,
    });
    const bannerMs = (await page.evaluate(() => /** @type {any} */ (window).__banner)) - sentAt;
    loads.push(firstRowMs);
    banners.push(bannerMs);
    console.log(
      `run ${run + 1}: first row ${Math.round(firstRowMs)} ms, SOS to banner ${Math.round(bannerMs)} ms` +
        ` (load average ${load.toFixed(1)})`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await stopServer(server);
  await rm(folder, { recursive: true, force: true });
}
const worst = (xs) => Math.max(...xs);
console.log(
  `first row of /devices: median ${Math.round(median(loads))} ms, worst ${Math.round(worst(loads))} ms`,
);
console.log(
  `SOS at the gateway to the banner: median ${Math.round(median(banners))} ms, worst ${Math.round(worst(banners))} ms`,
);
console.log(
  `load average after the runs: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
