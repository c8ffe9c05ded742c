// devices-page: the console's /devices in Chromium for an organisation of 10,000 wearers (bench/summary's seed), as
// its owner, on the built app (server and web) in a child process on PGlite. Five page loads, each in a fresh browser
// context: the time from navigation to the first wearer row on screen, how many rows the page drew, the summary's
// bytes on the wire; then scrolling through the whole list a screen per frame: frame intervals and long tasks.
// Usage: npm run bench -- devices-page [--wearers 10000] [--runs 5] [--warm] [--from /alert-histories]
//   [--latency 40] [--profile last-run.cpuprofile] [--trace last-run.json] [--waterfall]
//   --warm: each context opens /devices once before the measured navigation, so the scripts come from the
//   browser's cache with their compiled code (a staff member opening the console again); without it every
//   measured load is the context's first (a first visit after a release).
//   --from PATH: the console is open at PATH (loaded, its requests answered) and the measured navigation is a click
//   on the menu's /devices entry, as a staff member moves between pages; the time runs from the click. With --warm
//   the context opened /devices once before, as without --from.
// Target: first screen within 1,000 ms of navigation.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import {
  SERVER_MAIN,
  WEB_DIST,
  freePort,
  median,
  openPage,
  printMachine,
  requireBuild,
  serverEnv,
  startCpuProfile,
  startServer,
  stopServer,
  waitForReady,
} from '../foundation/_lib.mjs';
import {
  OWNER_EMAIL,
  OWNER_PASSWORD,
  openFreshDb,
  percentiles,
  seedOrganization,
} from '../summary/seed.mjs';

const { values } = parseArgs({
  options: {
    wearers: { type: 'string', default: '10000' },
    alerts: { type: 'string', default: '500' },
    runs: { type: 'string', default: '5' },
    // Writes Chromium's CPU profile of the last run (load and scroll) to this file (.cpuprofile).
    profile: { type: 'string' },
    // Prints each run's requests (start and end, ms after navigation) before the first row.
    waterfall: { type: 'boolean', default: false },
    warm: { type: 'boolean', default: false },
    from: { type: 'string' },
    // Adds this many ms to every request's answer (Chromium's network emulation), as a site's Wi-Fi or a phone's
    // mobile network would: the server and the browser share this machine's loopback otherwise.
    latency: { type: 'string', default: '0' },
    // Writes a Chromium trace (Perfetto, chrome://tracing) of the last run's measured navigation to this file: every
    // process, the renderer's tasks and its JavaScript samples, from navigation to the first row only (--profile
    // covers the whole last run, with --warm its visit before too, and the page's JavaScript only).
    trace: { type: 'string' },
  },
});
const TARGET_FIRST_MS = 1000;
requireBuild(SERVER_MAIN, 'the server');
requireBuild(join(WEB_DIST, 'index.html'), 'the web app');

const folder = await mkdtemp(join(tmpdir(), 'wearable-bench-devices-page-'));
const dataDir = join(folder, 'db');
const fresh = await openFreshDb({ dataDir });
await seedOrganization(fresh.db, {
  wearers: Number(values.wearers),
  openAlerts: Number(values.alerts),
});
await fresh.db.close();
console.log(`seeded ${values.wearers} wearers, ${values.alerts} open alerts`);

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startServer(serverEnv(port, dataDir, { SEED_DEMO: 'false' }));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
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

  const loads = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The session is in place before the app starts; the page notes when its first wearer row appears.
    await context.addInitScript((entries) => {
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
      const w = /** @type {any} */ (window);
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push({ at: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: true });
      const watch = () => {
        if (document.querySelector('[data-testid="wearer-row"]')) w.__firstRow = performance.now();
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    }, storage);
    const page = await context.newPage();
    if (Number(values.latency) > 0) {
      const network = await context.newCDPSession(page);
      await network.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: Number(values.latency),
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    const profiler =
      values.profile && run === Number(values.runs) - 1
        ? await startCpuProfile(context, page, values.profile, 200)
        : null;
    if (values.warm) {
      // The same page opened before: scripts, locale files and their compiled code in the context's cache.
      await page.goto(`${baseUrl}/devices`);
      await page.waitForFunction(() => /** @type {any} */ (window).__firstRow !== undefined, null, {
        timeout: 60_000,
      });
      await page.goto('about:blank');
    }
    const tracing = values.trace && run === Number(values.runs) - 1;
    if (tracing)
      await browser.startTracing(page, {
        screenshots: false,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'disabled-by-default-v8.cpu_profiler',
          'blink.user_timing',
          'loading',
        ],
      });
    const navAt = await openPage(page, baseUrl, '/devices', values.from);
    await page.waitForFunction(() => /** @type {any} */ (window).__firstRow !== undefined, null, {
      timeout: 60_000,
    });
    if (tracing) {
      await writeFile(values.trace, await browser.stopTracing());
      console.log(`trace of run ${run + 1} in ${values.trace}`);
    }
    const load = await page.evaluate((navAt) => {
      const w = /** @type {any} */ (window);
      const summary = performance
        .getEntriesByType('resource')
        .find((e) => e.startTime >= navAt && e.name.includes('/v3/device/summary'));
      return {
        firstRowMs: w.__firstRow - navAt,
        drawn: document.querySelectorAll('[data-testid="wearer-row"]').length,
        rowcount: document.querySelector('table')?.getAttribute('aria-rowcount'),
        summaryBytes: summary
          ? /** @type {PerformanceResourceTiming} */ (summary).encodedBodySize
          : null,
        summaryMs: summary ? summary.duration : null,
        document: (() => {
          const n = /** @type {PerformanceNavigationTiming} */ (
            performance.getEntriesByType('navigation')[0]
          );
          return `response ${Math.round(n.responseStart)}-${Math.round(n.responseEnd)}, DOMContentLoaded ${Math.round(n.domContentLoadedEventStart)}`;
        })(),
        early: w.__longTasks
          .filter((/** @type {any} */ t) => t.at >= navAt && t.at <= w.__firstRow)
          .map((/** @type {any} */ t) => `${Math.round(t.at - navAt)}+${Math.round(t.ms)}`)
          .join(' '),
        requests: performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime >= navAt && e.startTime <= w.__firstRow)
          .map(
            (e) =>
              `${Math.round(e.startTime - navAt)}-${Math.round(/** @type {PerformanceResourceTiming} */ (e).responseEnd - navAt)} ${e.name.replace(location.origin, '')}`,
          ),
      };
    }, navAt);
    if (values.waterfall) {
      console.log(load.requests.join('\n'));
      console.log(`document ${load.document}; long tasks before the first row: ${load.early}`);
    }
    // Through the whole list a screen per frame, as a fast wheel or a dragged scroll bar would.
    const scroll = await page.evaluate(async () => {
      const w = /** @type {any} */ (window);
      const from = performance.now();
      const frames = [];
      let last = from;
      let maxDrawn = 0;
      // The page's height changes as rows are measured (their real height for the estimate), so the
      // end is read again each frame; the walk ends at the bottom, when the page stops moving, or
      // after a minute.
      let still = 0;
      while (
        scrollY < document.documentElement.scrollHeight - innerHeight - 1 &&
        still < 5 &&
        performance.now() - from < 60_000
      ) {
        const before = scrollY;
        scrollBy(0, innerHeight);
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        frames.push(now - last);
        last = now;
        still = scrollY > before ? 0 : still + 1;
        maxDrawn = Math.max(
          maxDrawn,
          document.querySelectorAll('[data-testid="wearer-row"]').length,
        );
      }
      const rows = document.querySelectorAll('[data-testid="wearer-row"]');
      const lastRow = rows[rows.length - 1];
      return {
        frames,
        maxDrawn,
        lastIndex: lastRow?.getAttribute('aria-rowindex'),
        longTasks: w.__longTasks.filter((t) => t.at >= from),
      };
    });
    if (profiler) {
      await profiler.stop();
      console.log(`CPU profile of run ${run + 1} in ${values.profile}`);
    }
    await context.close();
    const f = percentiles(scroll.frames);
    const long = scroll.longTasks;
    const entry = {
      ...load,
      frames: f,
      longTasks: long.length,
      longTaskMs: Math.round(long.reduce((n, t) => n + t.ms, 0)),
      longest: Math.round(Math.max(0, ...long.map((t) => t.ms))),
      maxDrawn: scroll.maxDrawn,
      lastIndex: scroll.lastIndex,
    };
    loads.push(entry);
    console.log(
      `run ${run + 1}: first row ${Math.round(entry.firstRowMs)} ms after ${values.from ? 'the menu click' : 'navigation'} (summary ${entry.summaryBytes} bytes in ${Math.round(entry.summaryMs ?? 0)} ms), ${entry.drawn} rows drawn of aria-rowcount ${entry.rowcount}; scroll ${f.n} screens: frame p50 ${f.p50} ms, p95 ${f.p95} ms, max ${f.max} ms, ${entry.longTasks} long tasks (${entry.longTaskMs} ms, longest ${entry.longest} ms), at most ${entry.maxDrawn} rows drawn, last row ${entry.lastIndex}`,
    );
  }
  const first = loads.map((l) => l.firstRowMs);
  const p95s = loads.map((l) => l.frames.p95);
  console.log(
    `${values.warm ? 'warm (opened before)' : 'cold (first visit)'}${values.from ? `, from ${values.from} by the menu` : ''}: first screen: median ${Math.round(median(first))} ms, worst ${Math.round(Math.max(...first))} ms (target <= ${TARGET_FIRST_MS}: ${Math.max(...first) <= TARGET_FIRST_MS ? 'met' : median(first) <= TARGET_FIRST_MS ? 'met by the median' : 'MISSED'}); scroll frame p95: median ${median(p95s)} ms, worst ${Math.max(...p95s)} ms; long tasks while scrolling: median ${median(loads.map((l) => l.longTasks))}, worst ${Math.max(...loads.map((l) => l.longTasks))}`,
  );
  printMachine();
} finally {
  await browser.close();
  await stopServer(server);
  await rm(folder, { recursive: true, force: true });
}
