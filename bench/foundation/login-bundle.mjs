// login-bundle: gzip size of the JavaScript the browser loads for /login. Loads the page from the built web app
// (apps/web/dist, served here with the app's history fallback) in Debian's Chromium and sums the gzip size of every
// JS response. Usage: npm run bench -- login-bundle [--path /login]      Target: <= 120 kB gzip (issue 20).
// The same figure without a browser, from the build output, is CI's check: npm run check:login-bundle.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { WEB_DIST, printMachine, requireBuild } from './_lib.mjs';

const { values } = parseArgs({ options: { path: { type: 'string', default: '/login' } } });
const pagePath = values.path;
const TARGET_KB = 120;
/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

requireBuild(join(WEB_DIST, 'index.html'), 'the web app');

// Static files as the server serves them; every other GET gets index.html; API calls fail fast (no session here).
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
  if (/^\/(v2|v3|demo-api|monitoring)(\/|$)/.test(path)) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"UNAUTHENTICATED"}');
    return;
  }
  const file = join(WEB_DIST, normalize(path));
  const target =
    file.startsWith(WEB_DIST) && existsSync(file) && statSync(file).isFile()
      ? file
      : join(WEB_DIST, 'index.html');
  res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' });
  createReadStream(target).pipe(res);
});
await /** @type {Promise<void>} */ (new Promise((ok) => server.listen(0, '127.0.0.1', ok)));
const address = server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  /** @type {Map<string, Buffer>} */
  const scripts = new Map();
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.origin !== baseUrl || !url.pathname.endsWith('.js')) return;
    try {
      scripts.set(url.pathname, await response.body());
    } catch {
      // a response the page abandoned
    }
  });
  await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
  // The login form is on screen: every chunk it needed has arrived.
  await page.locator('input[type="password"]').waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');

  let raw = 0;
  let gzip = 0;
  const rows = [...scripts.entries()].map(([path, body]) => {
    const gz = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gzip += gz;
    return { path, kB: (body.length / 1000).toFixed(1), gzipKB: (gz / 1000).toFixed(1) };
  });
  rows.sort((a, b) => Number(b.gzipKB) - Number(a.gzipKB));
  for (const row of rows)
    console.log(`  ${row.gzipKB.padStart(7)} kB gzip  ${row.kB.padStart(7)} kB  ${row.path}`);

  const allJs = readdirSync(WEB_DIST, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js'));
  const allGzip = allJs.reduce(
    (sum, f) => sum + gzipSync(readFileSync(join(WEB_DIST, f)), { level: 9 }).length,
    0,
  );
  console.log(
    `${pagePath} loads ${rows.length} JS files: ${(gzip / 1000).toFixed(1)} kB gzip (${(raw / 1000).toFixed(1)} kB raw) ` +
      `(target <= ${TARGET_KB} kB gzip: ${gzip / 1000 <= TARGET_KB ? 'met' : 'MISSED'}); ` +
      `all JS in dist: ${allJs.length} files, ${(allGzip / 1000).toFixed(1)} kB gzip`,
  );
  printMachine();
} finally {
  await browser.close();
  server.close();
}
