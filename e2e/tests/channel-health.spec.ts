import { signInByApi } from '../support/api.js';
import { auditView, LANGUAGES, setWidth, useLanguage, WIDTHS } from '../support/a11y.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';

// Issue 38 item 4: /settings shows each channel of the organisation with its last delivery, its
// last failure and the reason. Read only: the demo organisation's settings are not changed (every
// story shares it), so its channels are what the seed and the other stories left; mail is always one.
const DEMO_CLIENT = 'demo-org';

const TEXTS = {
  ja: {
    title: '通知経路の状態',
    mail: 'メール',
    lastDelivered: '最後に届いた送信',
    lead: /10 分間/,
  },
  en: {
    title: 'Channel health',
    mail: 'Mail',
    lastDelivered: 'Last delivered',
    lead: /10 minutes/,
  },
} as const;

test('the owner reads each channel’s last delivery and failure on /settings (ja, en, axe, 360 and 1280 px); a group manager too, general staff not', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { accessToken } = await signIn(page, request, 'org-owner@example.com');
  const api = await request.get(`/v2/organization/${DEMO_CLIENT}/channelHealth`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(api.status(), await api.text()).toBe(200);
  const { channels } = (await api.json()) as { channels: { channel: string }[] };
  expect(channels.map((c) => c.channel)).toContain('EMAIL');

  const failures: string[] = [];
  for (const lng of LANGUAGES) {
    await useLanguage(page, lng);
    await setWidth(page, 1280);
    await page.goto('/settings');
    await waitForPage(page);
    const section = page.getByTestId('channel-health');
    await expect(section.getByRole('heading', { name: TEXTS[lng].title })).toBeVisible();
    await expect(section).toContainText(TEXTS[lng].lead);
    const cards = section.getByTestId('channel-health-channel');
    await expect(cards).toHaveCount(channels.length);
    const mail = section.locator('[data-testid="channel-health-channel"][data-channel="EMAIL"]');
    await expect(mail).toContainText(TEXTS[lng].mail);
    await expect(mail).toContainText(TEXTS[lng].lastDelivered);
    for (const width of WIDTHS) {
      await setWidth(page, width);
      failures.push(...(await auditView(page, `/settings channel health ${lng} ${width}px`)));
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/channel-health-${lng}-${width}.png` });
    }
  }

  // A group manager reads them too (they set who is woken); general staff do not see the section.
  await signIn(page, request, 'org-group@example.com');
  await page.goto('/settings');
  await waitForPage(page);
  await expect(page.getByTestId('channel-health')).toBeVisible();
  const general = (await signInByApi(request, 'org-general@example.com')).accessToken;
  const refused = await request.get(`/v2/organization/${DEMO_CLIENT}/channelHealth`, {
    headers: { authorization: `Bearer ${general}` },
  });
  expect(refused.status()).toBe(403);
  await signIn(page, request, 'org-general@example.com');
  await page.goto('/settings');
  await waitForPage(page);
  await expect(page.getByTestId('channel-health')).toHaveCount(0);
  expect(failures).toEqual([]);
});
