import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { axeFindings, sidewaysOverflow, widestElements } from '../support/a11y.js';
import { signInByApi } from '../support/api.js';
import { BAND_LAUNCH_ARGS, EmulatedBand } from '../support/ble.js';
import { roleCase } from '../support/roles.js';
import { signIn } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/*
 * The phone as a gateway (issue 16) in a real Chromium against the real server: enrolment by the QR link, an
 * emulated Bluetooth heart-rate band (support/ble.ts), SOS with the phone's position, two minutes offline, the band
 * walking away. Staff act through the API; the phone is driven through its screen only.
 */

test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', ...BAND_LAUNCH_ARGS],
  },
});

// A browser, a band and the real server on a loaded 2-core machine: more than the default 30 s.
test.setTimeout(120_000);

const POSITION = { latitude: 35.6812, longitude: 139.7671, accuracy: 15 };

interface Staff {
  headers: { authorization: string };
}

async function owner(request: APIRequestContext): Promise<Staff> {
  const { accessToken } = await signInByApi(request, roleCase('ORGANIZATION_OWNER').email);
  return { headers: { authorization: `Bearer ${accessToken}` } };
}

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** Staff register a SMARTPHONE gateway (no code yet). */
async function registerPhone(request: APIRequestContext, staff: Staff) {
  const s = stamp();
  const name = `スマホ ${s}`;
  const res = await request.post('/v2/gateway', {
    headers: staff.headers,
    data: {
      clientId: DEMO_CLIENT,
      type: 'SMARTPHONE',
      serialNumber: `E2E-PHONE-${s}`,
      name,
      groupId: 'demo-group-1',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const gatewayId = ((await res.json()) as { gateway: { id: string } }).gateway.id;
  return { gatewayId, name };
}

/** Staff register a SMARTPHONE gateway and create its one-time enrolment link (a shared phone here). */
async function enrolmentLink(request: APIRequestContext, staff: Staff) {
  const { gatewayId, name } = await registerPhone(request, staff);
  const code = await request.post(`/v2/gateway/${encodeURIComponent(gatewayId)}/enrolment`, {
    headers: staff.headers,
    data: { wearerId: null },
  });
  expect(code.status(), await code.text()).toBe(201);
  const { link } = (await code.json()) as { link: string };
  return { gatewayId, name, link };
}

/** A new wearer with the given bracelet serial, linked to the phone's gateway (the pairing modal's start). */
async function wearerWith(
  request: APIRequestContext,
  staff: Staff,
  gatewayId: string,
  serialNumber: string,
) {
  const name = `スマホ装着者 ${stamp()}`;
  const wearer = await request.post('/v2/user/wearer', {
    headers: staff.headers,
    data: { clientId: DEMO_CLIENT, name, birthDate: '1980-04-01', groupId: 'demo-group-1' },
  });
  expect(wearer.status(), await wearer.text()).toBe(201);
  const { uid } = (await wearer.json()) as { uid: string };
  const bracelet = await request.post('/v2/device', {
    headers: staff.headers,
    data: { mediromOrganizationId: DEMO_CLIENT, serialNumber },
  });
  expect(bracelet.status(), await bracelet.text()).toBe(201);
  const link = await request.post('/v2/user/device/link/gateway', {
    headers: staff.headers,
    data: { clientId: DEMO_CLIENT, uid, gatewayId, serialNumber },
  });
  expect(link.status(), await link.text()).toBe(200);
  return { uid, name };
}

async function phoneContext(browser: Browser, geolocation = false): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 360, height: 780 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    ...(geolocation ? { permissions: ['geolocation'], geolocation: POSITION } : {}),
  });
}

/** The phone opens the link and is enrolled; the fragment holding the code is gone from the address. */
async function enrol(phone: Page, link: { link: string; name: string }) {
  await phone.goto(link.link);
  // The page's first load on a loaded machine.
  await expect(phone.getByTestId('gateway-name')).toHaveText(link.name, { timeout: 30_000 });
  expect(new URL(phone.url()).hash).toBe('');
}

async function pickBand(phone: Page): Promise<string> {
  await phone.getByRole('button', { name: 'バンドを追加' }).click();
  await expect(phone.getByTestId('band-status')).toHaveText('接続しています');
  return (await phone.getByTestId('band-serial').textContent()) ?? '';
}

// The band story used to take the whole browser down now and then ("Target page, context or browser has been
// closed"): the emulation was turned off while the phone was still reconnecting, and Chromium 156 dies at the next
// `gatt.connect()`. EmulatedBand.close() now closes the phone's page first (support/ble.ts).
// The DISCONNECTION alert needs ten minutes of silence on the server's own clock, which this server cannot be made to
// pass: a phone-enrolled band's silence opening DISCONNECTION is proven in
// apps/server/src/modules/gateways/phone-band-disconnection.test.ts; here, what the phone's screen says.
// A shared phone lists the organisation's people to choose from: one with a long name must not widen the screen
// (in the whole suite other stories' wearers did, 9 px past 360: a select is as wide as its widest option).
test('a phone enrolled by the QR link hears a heart-rate band: 72 bpm is live on /devices; the band walks away and the screen says so', async ({
  browser,
  page,
  request,
}) => {
  const staff = await owner(request);
  await newWearer(request, staff, `長い名前の入居者さま 一之瀬川 左右衛門之助 ${stamp()}`);
  const link = await enrolmentLink(request, staff);
  const context = await phoneContext(browser);
  const phone = await context.newPage();
  // The phone's clock flows as the real one until the band has been gone long enough to be called lost.
  await phone.clock.install();
  const band = await EmulatedBand.create(browser, phone);
  try {
    await enrol(phone, link);
    await expect(phone.getByTestId('organization')).not.toBeEmpty();
    const serial = await pickBand(phone);
    expect(serial).toMatch(/^HRM-1-/);
    const wearer = await wearerWith(request, staff, link.gatewayId, serial);
    await expect(phone.getByTestId('band-heart-rate')).toHaveText('72 bpm');

    await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
    await page.goto('/devices');
    // The console's first load, slow on a loaded machine.
    await expect(page.getByTestId('page-heading')).toBeVisible({ timeout: 30_000 });
    const row = page.locator(`[data-testid="wearer-row"][data-uid="${wearer.uid}"]`);
    await expect(row).toContainText('72 bpm', { timeout: 20_000 });
    const paired = await request.get(`/v2/device/isPairedWearable?targetUid=${wearer.uid}`, {
      headers: staff.headers,
    });
    expect(await paired.json()).toEqual({ isPaired: true });

    // One-handed at 360 px, axe-clean in both languages.
    for (const language of ['ja', 'en'] as const) {
      if (language === 'en') {
        await phone.getByRole('button', { name: 'English' }).click();
        // The switch offers Japanese back once the page is in English.
        await expect(phone.getByRole('button', { name: '日本語' })).toBeVisible();
        await expect(phone.getByTestId('band-status')).toHaveText('Connected');
      }
      expect(await sidewaysOverflow(phone), (await widestElements(phone)).join(', ')).toBe(0);
      expect(await axeFindings(phone), language).toEqual([]);
    }
    await phone.getByRole('button', { name: '日本語' }).click();
    await expect(phone.getByTestId('band-status')).toHaveText('接続しています');

    // The band walks away: the screen says since when, in the phone's time (Asia/Tokyo).
    const hhmm = (ms: number) =>
      new Date(ms).toLocaleTimeString('ja-JP', {
        timeZone: 'Asia/Tokyo',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    const before = hhmm(Date.now());
    const attempts = band.connectionAttempts;
    await band.disconnect();
    const status = phone.getByTestId('band-status');
    await expect(status).toHaveText(/^再接続中 \(\d\d:\d\d から切断\)$/);
    const since = /(\d\d:\d\d)/.exec((await status.textContent()) ?? '')?.[1];
    expect([before, hhmm(Date.now())]).toContain(since);
    // The phone keeps trying (refused while out of range) and says so; nothing more reaches the server.
    const reads = band.reads;
    await expect
      .poll(() => band.connectionAttempts, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(attempts + 2);
    await expect(status).toHaveText(/^再接続中 /);
    // A minute later, at its next refused attempt, the band is lost since the same time (the phone keeps trying).
    await phone.clock.fastForward('01:00');
    await expect(status).toHaveText(`${since} から切断 (再接続を続けています)`);
    await expect
      .poll(async () => {
        await phone.clock.fastForward('01:00');
        return band.connectionAttempts;
      })
      .toBeGreaterThanOrEqual(attempts + 4);
    await expect(status).toHaveText(`${since} から切断 (再接続を続けています)`);
    expect(band.reads).toBe(reads);
  } finally {
    await band.close();
    await context.close();
  }
});

/** A new wearer of the demo organisation, as staff add one; nothing about phones or bracelets. */
async function newWearer(request: APIRequestContext, staff: Staff, name = `一人作業 ${stamp()}`) {
  const wearer = await request.post('/v2/user/wearer', {
    headers: staff.headers,
    data: { clientId: DEMO_CLIENT, name, birthDate: '1980-04-01', groupId: 'demo-group-1' },
  });
  expect(wearer.status(), await wearer.text()).toBe(201);
  return { uid: ((await wearer.json()) as { uid: string }).uid, name };
}

/** Holds SOS for 2 s and lets the 5 s countdown run out. */
async function holdSos(phone: Page) {
  const sos = phone.getByRole('button', { name: /SOS/ });
  await sos.hover();
  await phone.mouse.down();
  await expect(phone.getByTestId('countdown')).toBeVisible({ timeout: 5000 });
  await phone.mouse.up();
  await expect(phone.getByTestId('countdown')).toHaveText(/秒後に SOS を送信します/);
}

// Issue 34: a phone enrolled from the console for a wearer, with no other setup (no bracelet registered, no
// pairing), sends an SOS that the server accepts and that opens that wearer's alert on /devices.
test('a phone enrolled from the console for a wearer, with no other setup: its SOS opens their alert on /devices', async ({
  browser,
  page,
  request,
}) => {
  const staff = await owner(request);
  const { gatewayId, name } = await registerPhone(request, staff);
  const wearer = await newWearer(request, staff);
  const context = await phoneContext(browser, true);
  const phone = await context.newPage();
  try {
    // The console: connect a phone, for this wearer; the dialog says plainly whose SOS it sends.
    await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
    await page.goto('/settings/gateways');
    await expect(page.getByTestId('page-heading')).toBeVisible({ timeout: 30_000 });
    await page
      .getByTestId('gateway-settings-row')
      .filter({ hasText: name })
      .getByTestId('phone-enrolment-open')
      .click();
    const dialog = page.getByTestId('phone-enrolment-dialog');
    const carrier = dialog.getByTestId('phone-enrolment-carrier');
    await expect(carrier.locator('option', { hasText: wearer.name })).toHaveCount(1);
    await carrier.selectOption({ label: `${wearer.name}（${await groupName(request, staff)}）` });
    await dialog.getByTestId('phone-enrolment-create').click();
    await expect(dialog.getByTestId('phone-enrolment-sos-for')).toHaveText(
      `このスマートフォンの SOS と転倒は ${wearer.name} さんの通報として届きます。ほかの設定はいりません。`,
    );
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await axeFindings(page), `dialog ja ${width}`).toEqual([]);
      expect(await sidewaysOverflow(page), `dialog ja ${width}`).toBe(0);
      await page.screenshot({ path: `test-results/phone-enrolment-carrier-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const link = await dialog.getByTestId('phone-enrolment-link').inputValue();
    await page.keyboard.press('Escape');

    await enrol(phone, { link, name });
    await expect(phone.getByTestId('carrier-name')).toHaveText(
      `SOS と転倒は ${wearer.name} さんの通報として届きます`,
    );
    await phone.getByLabel(/この端末の位置を付けて送る/).check();
    await expect(phone.getByTestId('position')).toHaveText('現在地の精度: 約 15 m');

    await page.goto('/devices');
    await expect(page.getByTestId('page-heading')).toBeVisible({ timeout: 30_000 });
    const row = page.locator(`[data-testid="wearer-row"][data-uid="${wearer.uid}"]`);
    await expect(row).toBeVisible();

    const urgent = phone.waitForResponse(
      (r) =>
        r.url().endsWith('/gateway/v1/batches') && (r.request().postData() ?? '').includes('"SOS"'),
    );
    await holdSos(phone);
    const answer = await urgent;
    expect(await answer.json()).toMatchObject({ accepted: 1, rejected: [] });
    const sent = JSON.parse(answer.request().postData() ?? '{}') as {
      events: { type: string; serialNumber: string; location?: typeof POSITION }[];
    };
    expect(sent.events).toEqual([
      expect.objectContaining({
        type: 'SOS',
        // As stored: serials are kept upper-case (migration 033).
        serialNumber: `PHONE-${gatewayId}`.toUpperCase(),
        location: expect.objectContaining(POSITION),
      }),
    ]);
    await expect(phone.getByTestId('last-event')).toContainText('SOS を送信しました', {
      timeout: 10_000,
    });
    await expect(phone.getByTestId('not-delivered')).toHaveCount(0);
    await expect(row.getByTestId('alert-badge').filter({ hasText: 'SOS' })).toBeVisible({
      timeout: 20_000,
    });
    const alerts = await request.get(`/v2/alert/list?uid=${wearer.uid}`, {
      headers: staff.headers,
    });
    expect(alerts.status(), await alerts.text()).toBe(200);
    expect(JSON.stringify(await alerts.json())).toContain(String(POSITION.latitude));
  } finally {
    await context.close();
  }
});

async function groupName(request: APIRequestContext, staff: Staff): Promise<string> {
  const res = await request.get(`/v2/client/${DEMO_CLIENT}`, { headers: staff.headers });
  const groups = ((await res.json()) as { groups: { id: string; name: string }[] }).groups;
  return groups.find((g) => g.id === 'demo-group-1')?.name ?? '';
}

// The server refuses the phone (its gateway credential was rotated, as when staff revoke it): the SOS is not
// "sent"; a full-screen failure says to call 119 now, and the phone keeps the SOS to send again.
test('an SOS the server refuses (credential revoked) is a full-screen failure with a 119 link, in ja and en at 360 px', async ({
  browser,
  request,
}) => {
  const staff = await owner(request);
  const { gatewayId, name } = await registerPhone(request, staff);
  const wearer = await newWearer(request, staff);
  const code = await request.post(`/v2/gateway/${encodeURIComponent(gatewayId)}/enrolment`, {
    headers: staff.headers,
    data: { wearerId: wearer.uid },
  });
  expect(code.status(), await code.text()).toBe(201);
  const { link } = (await code.json()) as { link: string };
  const context = await phoneContext(browser);
  const phone = await context.newPage();
  try {
    await enrol(phone, { link, name });
    const revoked = await request.post(`/v2/gateway/${encodeURIComponent(gatewayId)}/credential`, {
      headers: staff.headers,
    });
    expect(revoked.status(), await revoked.text()).toBe(200);
    await holdSos(phone);
    const failure = phone.getByTestId('not-delivered');
    await expect(failure).toBeVisible({ timeout: 20_000 });
    await expect(failure.getByRole('heading')).toHaveText('SOS は届いていません');
    await expect(failure.getByTestId('call-119')).toHaveAttribute('href', 'tel:119');
    await expect(failure.getByTestId('call-119')).toHaveText('119 に電話する');
    // Signed out: the SOS is kept and sent again once the phone is enrolled again.
    await expect(failure).toContainText('登録し直すと送信します');
    await expect(phone.getByTestId('last-event')).not.toContainText('送信しました');
    expect(await sidewaysOverflow(phone)).toBe(0);
    expect(await axeFindings(phone), 'failure ja').toEqual([]);
    await phone.screenshot({ path: 'test-results/phone-sos-failure-ja-360.png' });
    await phone.setViewportSize({ width: 1280, height: 800 });
    await phone.screenshot({ path: 'test-results/phone-sos-failure-ja-1280.png' });
    await phone.setViewportSize({ width: 360, height: 780 });

    // Closed, the line above SOS still says it and offers the call.
    await failure.getByRole('button', { name: '閉じる' }).click();
    await expect(failure).toHaveCount(0);
    await expect(phone.getByTestId('last-event')).toContainText('SOS は届いていません');
    await expect(phone.getByTestId('call-119')).toHaveAttribute('href', 'tel:119');
    await phone.getByRole('button', { name: 'English' }).click();
    await expect(phone.getByTestId('last-event')).toContainText('SOS NOT delivered');
    expect(await sidewaysOverflow(phone)).toBe(0);
    expect(await axeFindings(phone), 'signed out en').toEqual([]);
    await phone.screenshot({ path: 'test-results/phone-sos-failure-closed-en-360.png' });
    // A reload does not hide it: the full screen again, in English.
    await phone.reload();
    await expect(failure).toBeVisible();
    await expect(failure.getByRole('heading')).toHaveText('SOS NOT delivered');
    await expect(failure.getByTestId('call-119')).toHaveText('Call 119');
    expect(await sidewaysOverflow(phone)).toBe(0);
    expect(await axeFindings(phone), 'failure en').toEqual([]);
    await phone.screenshot({ path: 'test-results/phone-sos-failure-en-360.png' });
  } finally {
    await context.close();
  }
});

test('two minutes offline (the page clock moved on): every reading reaches the server exactly once', async ({
  browser,
  request,
}) => {
  const staff = await owner(request);
  const link = await enrolmentLink(request, staff);
  const context = await phoneContext(browser);
  const phone = await context.newPage();
  // The page's clock (timers and Date) is Playwright's: two minutes pass in a few seconds.
  await phone.clock.install();
  // Its own address: a peripheral of an earlier test in the same browser is not reused.
  const band = await EmulatedBand.create(browser, phone, { address: '09:09:09:09:09:03' });
  const acknowledged: { readings: { serialNumber: string; at: string }[]; accepted: number }[] = [];
  phone.on('response', (response) => {
    if (!response.url().endsWith('/gateway/v1/batches') || response.status() !== 200) return;
    const body = JSON.parse(response.request().postData() ?? '{}') as {
      readings?: { serialNumber: string; at: string }[];
    };
    void response.json().then((result: { accepted: number; rejected: unknown[] }) => {
      if (result.rejected.length === 0)
        acknowledged.push({ readings: body.readings ?? [], accepted: result.accepted });
    });
  });
  try {
    await enrol(phone, link);
    const serial = await pickBand(phone);
    await wearerWith(request, staff, link.gatewayId, serial);
    // Time moves only when the test moves it: a second at a time until everything queued is acknowledged.
    const drained = () =>
      expect
        .poll(
          async () => {
            await phone.clock.fastForward(1000);
            return phone.getByTestId('queue-length').textContent();
          },
          { timeout: 60_000 },
        )
        .toBe('0 件');
    await drained();
    const before = acknowledged.length;

    await context.setOffline(true);
    await expect(phone.getByText('オフライン', { exact: false })).toBeVisible();
    for (let second = 0; second < 120; second += 5) {
      const reads = band.reads;
      await phone.clock.fastForward(5000);
      await expect.poll(() => band.reads).toBeGreaterThan(reads);
    }
    await expect(phone.getByTestId('queue-length')).not.toHaveText('0 件');
    const queued = Number((await phone.getByTestId('queue-length').textContent())?.split(' ')[0]);
    expect(queued).toBeGreaterThanOrEqual(20);

    await context.setOffline(false);
    await drained();
    // The response log is filled when each answer's body has been read, which can come after the
    // queue shows empty: wait for it too.
    await expect
      .poll(() => acknowledged.slice(before).flatMap((a) => a.readings).length)
      .toBeGreaterThanOrEqual(queued);
    const after = acknowledged.slice(before);
    const readings = after.flatMap((a) => a.readings).map((r) => `${r.serialNumber} ${r.at}`);
    expect(readings.length).toBeGreaterThanOrEqual(queued);
    expect(new Set(readings).size).toBe(readings.length);
    expect(after.reduce((n, a) => n + a.accepted, 0)).toBe(readings.length);
  } finally {
    await band.close();
    await context.close();
  }
});
