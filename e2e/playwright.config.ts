import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the real, built server (see docs/testing.md).
 * global-setup starts `node apps/server/dist/main.js start` on a fresh data folder and a free port,
 * unless E2E_BASE_URL points at a server that is already running.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Playwright's trace modes (E2E_TRACE). */
type TraceMode = 'off' | 'on' | 'retain-on-failure' | 'on-first-retry' | 'on-all-retries';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell) when it is installed: the same Blink, V8 and
 * DevTools protocol without the full browser around them, what Playwright itself runs headless by default. The
 * browser stories took 16 % less time in it on this machine (docs/testing.md, "CI timing"). Otherwise the full
 * browser, which the phone gateway's Bluetooth stories always use (phone-gateway.spec.ts). E2E_CHROMIUM: another one.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM =
  process.env.E2E_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  // Two cores are shared by the whole team: never more than two browsers at once.
  workers: 2,
  fullyParallel: true,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  // Many stories take 20-30 s on this 2-core machine when it is quiet: 60 s leaves room for a loaded one.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // list prints each test; the summary reporter makes the final line "E2E: N passed, M failed ...".
  reporter: [['list'], ['./support/summary-reporter.ts']],
  // Inside e2e/ (gitignored): the repository's shared .tmp/ is cleaned by other tools while a run is going.
  outputDir: './test-results',
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    // The trace (DOM snapshots of every step; the screencast left out, a fifth of a story's time) is recorded where
    // it is read: in CI on the retry of a failed story (a story that fails twice has it, a flaky one has the retry's),
    // locally (no retries) for every story, kept on failure. Recording it for every story in CI cost 10-15 % of the
    // axe-and-width stories' time (74/63 s against 86/68 s for 20 of them, interleaved); every failure still keeps its
    // screenshot and error. E2E_TRACE: another mode.
    trace: {
      mode:
        (process.env.E2E_TRACE as TraceMode | undefined) ??
        (process.env.CI ? 'on-first-retry' : 'retain-on-failure'),
      screenshots: false,
    },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
});
