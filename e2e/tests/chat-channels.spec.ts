import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import {
  createInstallation,
  startServer,
  type Installation,
  type OwnServer,
} from '../support/server.js';
import { STORAGE_KEYS, writeStorage } from '../support/session.js';

/*
 * Issue 38 item 2: an owner sets up a Slack channel on /settings/chat-channels (an incoming webhook pointing
 * at a fake the story starts, answering 200 "ok" as Slack's "Sending messages using incoming webhooks" shows),
 * sends a test that the fake receives, and names the channel in a group's notice settings; the new section is
 * axe-clean and fits 360 px in ja and en. On a server of its own (it changes an organisation's settings, and
 * the fake's http://127.0.0.1 address needs WEBHOOKS_ALLOW_PRIVATE), acting as its platform owner.
 */

const test = base.extend<{ server: OwnServer }, { installation: Installation }>({
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
      const server = await startServer(installation, { WEBHOOKS_ALLOW_PRIVATE: 'true' });
      await use(server);
      await server.stop();
    },
    { timeout: 150_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
});
test.describe.configure({ mode: 'default' });

/** Slack's incoming webhook, faked: every message it got. */
async function fakeSlackWebhook() {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString());
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The platform owner signed in by API (terms agreed), with an organisation and a group of the story's own. */
async function setUp(request: APIRequestContext, server: OwnServer, lng: string) {
  const signIn = await request.post('/v2/auth/signIn', {
    data: { email: server.owner.email, password: server.owner.password },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const tokens = (await signIn.json()) as {
    accessToken: string;
    refreshToken: string;
    refreshExpiresIn: number;
  };
  const headers = { authorization: `Bearer ${tokens.accessToken}` };
  const terms = await request.post('/v2/user/termsOfUse', { headers, data: { agreement: true } });
  expect(terms.status(), await terms.text()).toBeLessThan(300);
  const org = await request.post('/v2/client', { headers, data: { name: `チャット連携 ${lng}` } });
  expect(org.status(), await org.text()).toBe(201);
  const organizationId = ((await org.json()) as { id: string }).id;
  const group = await request.post('/v2/group', {
    headers,
    data: { clientId: organizationId, name: `本館 ${lng}` },
  });
  expect(group.status(), await group.text()).toBe(201);
  const groupId = ((await group.json()) as { id: string }).id;
  const user = await (await request.get('/v2/user', { headers })).json();
  return { tokens, headers, organizationId, groupId, user };
}

async function openSignedIn(
  page: Page,
  s: Awaited<ReturnType<typeof setUp>>,
  lng: (typeof LANGUAGES)[number],
  path: string,
) {
  await page.goto('/readyz');
  await writeStorage(page, {
    [STORAGE_KEYS.accessToken]: s.tokens.accessToken,
    [STORAGE_KEYS.refreshToken]: s.tokens.refreshToken,
    [STORAGE_KEYS.loginTime]: String(Date.now()),
    [STORAGE_KEYS.refreshExpiresIn]: String(s.tokens.refreshExpiresIn),
    [STORAGE_KEYS.userInfo]: JSON.stringify(s.user),
  });
  await useLanguage(page, lng);
  await page.goto(path);
  await settle(page);
}

for (const lng of LANGUAGES) {
  test(`an owner sets up Slack, tests it and names it in a group's notice settings (${lng})`, async ({
    page,
    request,
    server,
  }) => {
    const slack = await fakeSlackWebhook();
    try {
      const s = await setUp(request, server, lng);
      await openSignedIn(page, s, lng, '/settings/chat-channels');
      await page.getByTestId('chat-channels-organization').selectOption(s.organizationId);
      const card = page.getByTestId('chat-channel-SLACK');
      await expect(card.getByTestId('chat-channel-state')).toBeVisible();
      await card.getByTestId('chat-field-webhookUrl').fill(slack.url);
      await card.getByTestId('chat-save').click();
      await expect(page.getByTestId('chat-channel-SLACK').getByTestId('chat-status')).toBeVisible();
      // Saved: the secret is not shown again, only its last characters.
      const saved = page.getByTestId('chat-channel-SLACK');
      await expect(saved.getByTestId('chat-field-webhookUrl')).toHaveValue('');
      await expect(saved).toContainText('…XXXX');
      await saved.getByTestId('chat-test').click();
      await expect.poll(() => slack.received.length).toBe(1);
      expect(JSON.parse(slack.received[0]!)).toMatchObject({ blocks: expect.any(Array) });

      const failures: string[] = [];
      for (const width of WIDTHS) {
        await setWidth(page, width);
        failures.push(...(await auditView(page, `/settings/chat-channels ${lng} ${width}px`)));
      }
      expect(failures).toEqual([]);

      // The group names the channel: no person, no number.
      await page.goto(`/groups/${s.groupId}/alert-notice-settings`);
      await settle(page);
      await page.getByTestId('recipient-add').click();
      await page.getByTestId('recipient-kind-chat').check();
      await page.getByTestId('recipient-channel-SLACK').check();
      await page.getByTestId('recipient-done').click();
      await page.getByTestId('notice-save').click();
      await expect
        .poll(async () => {
          const res = await request.get(`/v2/group/${s.groupId}/alertNoticeSettings`, {
            headers: s.headers,
          });
          return ((await res.json()) as { recipients: { channel: string }[] }).recipients.map(
            (r) => r.channel,
          );
        })
        .toEqual(['SLACK']);
    } finally {
      await slack.close();
    }
  });
}
