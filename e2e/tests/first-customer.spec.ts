import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { LANGUAGES, type Lng } from '../support/a11y.js';
import { newestMailTo } from '../support/mail.js';
import {
  createInstallation,
  startServer,
  type Installation,
  type OwnServer,
} from '../support/server.js';
import { STORAGE_KEYS, urlWithPath, waitForPage } from '../support/session.js';

/*
 * Issue 35, "Measure": the first customer's story, told from an empty installation (one platform
 * owner, made with the CLI's create-admin, no demo) to a wearer's live reading on /devices and a
 * confirmed test alert, through the console alone. Only the gateway's own batches stand in for the
 * hardware. Every click (and Enter that submits) is counted per step: docs/first-customer.md
 * holds the counts, so a change that adds a click to the first day shows up here.
 */

const test = base.extend<{ server: OwnServer }, { installation: Installation }>({
  // One installation (its database migrated, its platform owner made) per worker, copied for each
  // story: on a busy machine the migrations alone were seen to take 35 s. Their own timeouts,
  // outside the story's.
  installation: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from the pattern.
    async ({}, use) => {
      const installation = await createInstallation();
      await use(installation);
      await installation.remove();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  server: [
    async ({ installation }, use) => {
      const server = await startServer(installation);
      await use(server);
      await server.stop();
    },
    { timeout: 150_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
});

// The two languages one after the other, in one worker: two servers starting side by side on a
// 2-core machine took each other's time.
test.describe.configure({ mode: 'default' });

const WORDS = {
  ja: {
    organization: 'みどり苑',
    owner: '緑川 一郎',
    group: '本館',
    gateway: '本館ゲートウェイ',
    wearer: '山田 花子',
    setup: 'はじめの設定',
    allDone: 'すべての手順',
    // Japanese text has the one-character sign, English the degree sign and a C.
    temperature: '36.4 ℃',
  },
  en: {
    organization: 'Green Home',
    owner: 'Ichiro Midorikawa',
    group: 'Main building',
    gateway: 'Main building gateway',
    wearer: 'Hanako Yamada',
    setup: 'Getting started',
    allDone: 'Every step is done',
    temperature: '36.4 °C',
  },
} as const;

/** Clicks and submitting key presses, per step of the story. */
class Counter {
  readonly steps: { step: string; clicks: number }[] = [];

  step(name: string): void {
    this.steps.push({ step: name, clicks: 0 });
  }

  private count(): void {
    const current = this.steps.at(-1);
    if (!current) throw new Error('no step started');
    current.clicks += 1;
  }

  async click(target: Locator): Promise<void> {
    this.count();
    await target.click();
  }

  async check(target: Locator): Promise<void> {
    this.count();
    await target.check();
  }

  /** Choosing from a list: one click on the list, one on the choice. */
  async choose(target: Locator, value: string): Promise<void> {
    this.count();
    this.count();
    await target.selectOption(value);
  }

  async press(target: Locator, key: string): Promise<void> {
    this.count();
    await target.press(key);
  }

  /** A click the page may swallow while it settles (see e2e/support/actions.ts): counted once. */
  async clickUntil(target: Locator, isDone: () => Promise<boolean>): Promise<void> {
    this.count();
    await expect(async () => {
      if (!(await isDone())) await target.click({ timeout: 5_000 });
      await expect.poll(isDone, { timeout: 2_000 }).toBe(true);
    }).toPass({ timeout: 20_000, intervals: [250, 500, 1_000] });
  }

  get total(): number {
    return this.steps.reduce((sum, s) => sum + s.clicks, 0);
  }
}

/** The menu's entry to a page (the top bar at this width). */
const menuLink = (page: Page, path: string) =>
  page.getByTestId('main-menu').locator(`a[href="${path}"]`);

async function backToSetup(page: Page, counter: Counter): Promise<void> {
  await counter.click(menuLink(page, '/setup'));
  await expect(page).toHaveURL(urlWithPath('/setup'));
  await expect(page.getByTestId('setup-steps')).toBeVisible();
}

test.use({ actionTimeout: 15_000 });

const expectDone = (page: Page, step: string) =>
  expect(page.getByTestId(`setup-step-${step}`)).toHaveAttribute('data-done', 'true');

for (const lng of LANGUAGES) {
  test(`a new customer goes from an empty installation to a live reading and a confirmed test alert (${lng})`, async ({
    page,
    request,
    server,
  }) => {
    test.setTimeout(120_000);
    const words: (typeof WORDS)[Lng] = WORDS[lng];
    const counter = new Counter();
    const ownerEmail = `owner-${lng}@example.com`;
    await page.goto('/readyz');
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      STORAGE_KEYS.language,
      lng,
    ] as const);

    counter.step('signIn');
    await page.goto('/login');
    await page.locator('input[name="email"]').fill(server.owner.email);
    await page.locator('input[name="password"]').fill(server.owner.password);
    await counter.click(page.getByTestId('login-submit'));
    // An account made on the command line has not agreed to the terms of use yet.
    const terms = page.getByTestId('terms-modal');
    await expect(terms).toBeVisible();
    await counter.check(terms.getByTestId('terms-checkbox'));
    await counter.click(terms.getByTestId('terms-ok'));
    await expect(terms).toBeHidden();
    await waitForPage(page);

    counter.step('organization');
    if (!urlWithPath('/organization').test(page.url())) {
      await counter.click(menuLink(page, '/organization'));
    }
    await expect(page).toHaveURL(urlWithPath('/organization'));
    const dialog = page.getByTestId('create-organization-dialog');
    await counter.clickUntil(page.getByTestId('create-organization'), () =>
      dialog.getByTestId('create-organization-name').isVisible(),
    );
    await dialog.getByTestId('create-organization-name').fill(words.organization);
    await counter.check(dialog.getByTestId('create-organization-kind-CARE_HOME'));
    await dialog.getByTestId('create-organization-owner-email').fill(ownerEmail);
    await dialog.getByTestId('create-organization-owner-name').fill(words.owner);
    const locale = dialog.locator('select[name="locale"]');
    if ((await locale.inputValue()) !== lng) await counter.choose(locale, lng);
    const asked = Date.now();
    await counter.click(dialog.getByTestId('create-organization-submit'));
    await expect(dialog.getByTestId('create-organization-done')).toContainText(ownerEmail);

    // The owner opens the mail's link (here in the same browser, its session forgotten).
    counter.step('register');
    const mail = await newestMailTo(ownerEmail, asked, `${server.dataDir}/mail`);
    const link = /https?:\/\/\S+\/verify\S*#invite=[\w-]+/.exec(mail.text)?.[0] ?? '';
    expect(link).not.toBe('');
    // A browser that has never opened the console (Japanese by default).
    await page.evaluate(() => localStorage.clear());
    const owner = page;
    await owner.goto(link);
    counter.steps.at(-1)!.clicks += 1; // the link in the mail
    await expect(owner.getByTestId('invitation-summary')).toContainText(words.organization);
    // In the invitation's language, whatever the browser had.
    await expect(owner.locator('html')).toHaveAttribute('lang', lng);
    await expect(owner.getByTestId('register-name')).toHaveValue(words.owner);
    await owner.getByTestId('register-password').fill('a-long-password-2026');
    await counter.check(owner.getByTestId('register-terms'));
    await counter.click(owner.getByTestId('register-submit'));
    await expect(owner).toHaveURL(urlWithPath('/setup'));
    await expect(owner.getByTestId('page-heading')).toHaveText(words.setup);
    await expect(owner.getByTestId('setup-lead')).toContainText(words.organization);

    counter.step('group');
    await counter.click(owner.getByTestId('setup-link-groups'));
    await owner.getByTestId('group-create-name').fill(words.group);
    await counter.click(owner.getByTestId('group-create-submit'));
    await expect(
      owner.getByTestId('group-settings-row').filter({ hasText: words.group }),
    ).toBeVisible();
    await backToSetup(owner, counter);
    await expectDone(owner, 'groups');

    counter.step('gateway');
    await counter.click(owner.getByTestId('setup-link-gateways'));
    await owner.getByTestId('gateway-register-serialNumber').fill(`GW-${lng}-0001`);
    await owner.getByTestId('gateway-register-name').fill(words.gateway);
    await counter.click(owner.getByTestId('gateway-register-submit'));
    const connection = owner.getByTestId('connection-dialog');
    await expect(connection).toBeVisible();
    const credential = await connection.getByTestId('connection-credential').inputValue();
    const gatewayId = (await connection.getByTestId('connection-gateway-id').textContent()) ?? '';
    expect(gatewayId).toMatch(/^gw-/);
    await counter.click(connection.getByTestId('connection-done'));
    await backToSetup(owner, counter);
    await expectDone(owner, 'gateways');

    const serial = `BR-${lng}-0001`;
    counter.step('bracelet');
    await counter.click(owner.getByTestId('setup-link-bracelets'));
    const register = owner.getByTestId('register-bracelet-dialog');
    await counter.clickUntil(owner.getByTestId('devices-register-bracelet'), () =>
      register.isVisible(),
    );
    await register.getByTestId('register-serial').fill(serial);
    await counter.click(register.getByTestId('register-submit'));
    await expect(register).toBeHidden();
    await backToSetup(owner, counter);
    await expectDone(owner, 'bracelets');

    counter.step('wearer');
    await counter.click(owner.getByTestId('setup-link-wearers'));
    const wearerDialog = owner.getByTestId('wearer-dialog');
    await expect(wearerDialog).toBeVisible();
    await wearerDialog.getByTestId('wearer-name').fill(words.wearer);
    await wearerDialog.getByTestId('wearer-birth-date').fill('1948-04-01');
    await counter.click(wearerDialog.getByTestId('wearer-submit'));
    await expect(wearerDialog).toBeHidden();
    await backToSetup(owner, counter);
    await expectDone(owner, 'wearers');

    counter.step('pairing');
    // The checklist leads to the bracelet page of the wearer who has none.
    await counter.click(owner.getByTestId('setup-link-pairing'));
    await expect(owner).toHaveURL(/\/device_setting$/);
    await expect(owner.getByTestId('page-heading')).toContainText(words.wearer);
    await counter.click(owner.getByTestId('open-pairing'));
    const pairing = owner.getByTestId('pairing-modal');
    await pairing.getByTestId('pairing-serial').fill(serial);
    const gatewayChoice = pairing.getByTestId('pairing-gateway');
    if ((await gatewayChoice.inputValue()) !== gatewayId)
      await counter.choose(gatewayChoice, gatewayId);
    await counter.click(pairing.getByTestId('pairing-start'));
    await expect(pairing).toBeHidden();
    // The gateway hears the bracelet: the pairing completes.
    const batch = async (data: Record<string, unknown>) => {
      const res = await request.post('/gateway/v1/batches', {
        headers: { authorization: `Gateway ${gatewayId}:${credential}` },
        data,
      });
      expect(res.status(), await res.text()).toBe(200);
      expect(((await res.json()) as { rejected: unknown[] }).rejected).toEqual([]);
    };
    await batch({ pairings: [{ serialNumber: serial, at: new Date().toISOString() }] });
    await backToSetup(owner, counter);
    await expectDone(owner, 'pairing');

    counter.step('recipient');
    await counter.click(owner.getByTestId('setup-link-recipients'));
    const card = owner.getByTestId('group-card').filter({ hasText: words.group });
    await counter.click(card.getByTestId('group-notice-link'));
    await counter.click(owner.getByTestId('recipient-add'));
    const editor = owner.getByTestId('recipient-editor');
    await editor.getByTestId('recipient-phone').fill('+819011112222');
    await counter.click(editor.getByTestId('recipient-done'));
    await counter.click(owner.getByTestId('notice-save'));
    await expect(owner.getByTestId('notice-dirty')).toHaveCount(0);
    await backToSetup(owner, counter);
    await expectDone(owner, 'recipients');

    // The bracelet on the wearer's wrist: readings through the gateway, live on /devices.
    counter.step('liveReading');
    const now = Date.now();
    await batch({
      readings: [0, 1, 2].map((i) => ({
        serialNumber: serial,
        at: new Date(now - (2 - i) * 60_000).toISOString(),
        heartRate: 72 + i,
        skinTemperature: 36.4,
        worn: true,
        battery: 90,
      })),
    });
    await counter.click(menuLink(owner, '/devices'));
    const live = owner.getByTestId('wearer-row').filter({ hasText: words.wearer });
    await expect(live).toContainText(words.temperature);
    await expect(live).toContainText('74 bpm');

    counter.step('testAlert');
    await backToSetup(owner, counter);
    await counter.click(owner.getByTestId('setup-send-test'));
    await expect(owner.getByTestId('setup-test-sent')).toBeVisible();
    await counter.click(owner.getByTestId('setup-confirm-link'));
    const alertRow = owner.getByTestId('alert-row').first();
    await counter.click(alertRow.getByTestId('alert-confirm'));
    await counter.click(owner.getByRole('dialog').getByTestId('confirm-submit'));
    await expect(alertRow.getByTestId('alert-confirm')).toHaveCount(0);
    await backToSetup(owner, counter);
    await expectDone(owner, 'testAlert');
    await expect(owner.getByTestId('setup-progress')).toContainText(words.allDone);

    const counts = counter.steps.map((s) => `${s.step} ${s.clicks}`).join(', ');
    test.info().annotations.push({
      type: 'clicks',
      description: `${lng}: ${counts}; total ${counter.total}`,
    });
    console.log(`clicks (${lng}): ${counts}; total ${counter.total}`);
  });
}
