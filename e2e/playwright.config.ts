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
    // A failure keeps its trace with DOM snapshots of every step; the trace's screencast is left out: recording it
    // for every test (a pass throws it away) cost about a fifth of a test's time on this 2-core machine, and the
    // failure's own screenshot remains.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
});
