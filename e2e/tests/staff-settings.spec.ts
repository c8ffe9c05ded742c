import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';
import { auth, newGroup, tabTo } from '../support/staff.js';

/*
 * Staff settings against the real server: a group's alert recipients (added, reordered with the keyboard, saved,
 * read back after a reload) and a test SMS that goes through the provider and shows in the notification log; bulk
 * alert settings of a group with a preview of how many wearers change; the organisation's notification timing and
 * limits (with the notice policy, in notice-policy.spec.ts). Each test makes its own group (and wearer),
 * so the demo's groups and wearers stay as other files expect them.
 */

// Several pages and server round trips each; the shared machine can be slow.
test.describe.configure({ timeout: 90_000 });

test('notice settings: recipients added, reordered by keyboard, saved; a test SMS reaches the notification log', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const groupName = `E2E通知 ${Date.now()}`;
  const groupId = await newGroup(request, accessToken, groupName);
  try {
    await page.goto(`/groups/${groupId}/alert-notice-settings`);
    await waitForPage(page);
    await expect(page.getByTestId('notice-group-name')).toContainText(groupName);
    await expect(page.getByTestId('notice-empty')).toBeVisible();

    // First recipient: a number by SMS, emergencies (the editor's default types), step 1.
    await page.getByTestId('recipient-add').click();
    const editor = page.getByTestId('recipient-editor');
    await editor.getByTestId('recipient-phone').fill('090-1111');
    await editor.getByTestId('recipient-done').click();
    await expect(editor.getByTestId('recipient-error')).toBeVisible();
    await editor.getByTestId('recipient-phone').fill('+819011112222');
    await editor.getByTestId('recipient-done').click();

    // Second: a phone call, added at step 2.
    await page.getByTestId('recipient-add').click();
    await editor.getByTestId('recipient-phone').fill('+819033334444');
    await editor.getByTestId('recipient-channel-PHONE_CALL').check();
    await editor.getByTestId('recipient-types-all').click();
    await editor.getByTestId('recipient-done').click();
    const cards = page.getByTestId('notice-recipient');
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(1).getByTestId('recipient-step-badge')).toHaveText('第2段階');

    // Keyboard: the call goes one step later, then two steps earlier, ahead of the SMS.
    const later = cards.nth(1).getByTestId('recipient-move-down');
    await tabTo(page, later);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('notice-announcement')).toContainText('第3段階');
    await expect(page.getByTestId('recipient-move-down')).toHaveCount(2);
    await expect(later).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(cards.nth(1).getByTestId('recipient-move-up')).toBeFocused();
    await page.keyboard.press('Enter');
    // Each press is one announced move; the next press waits for it (the button keeps focus).
    await expect(page.getByTestId('notice-announcement')).toContainText('第2段階');
    await expect(cards.nth(1).getByTestId('recipient-move-up')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(cards.nth(0).getByTestId('recipient-who')).toHaveText('+819033334444');
    await expect(cards.nth(0).getByTestId('recipient-step-badge')).toHaveText('第1段階');
    await expect(page.getByTestId('notice-dirty')).toBeVisible();

    await page.getByTestId('notice-save').click();
    await expect(page.getByText('通知先を保存しました。').first()).toBeVisible();
    await expect(page.getByTestId('notice-dirty')).toBeHidden();
    // Screen readers hear the final state, not the last unsaved move (issue 36 item 5).
    await expect(page.getByTestId('notice-announcement')).toHaveText('通知先を保存しました。');

    await page.reload();
    await waitForPage(page);
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(0).getByTestId('recipient-who')).toHaveText('+819033334444');
    await expect(cards.nth(1).getByTestId('recipient-who')).toHaveText('+819011112222');
    await expect(cards.nth(1)).toContainText('SMS');

    // Japanese public holidays: the Sunday row unless the group says they follow their weekday.
    const holidays = page.getByRole('checkbox', { name: '祝日も曜日どおりの予定で通知する' });
    await expect(holidays).not.toBeChecked();
    await holidays.check();
    await expect(page.getByTestId('notice-dirty')).toBeVisible();
    await page.getByTestId('notice-save').click();
    await expect(page.getByTestId('notice-dirty')).toBeHidden();
    await page.reload();
    await waitForPage(page);
    await expect(holidays).toBeChecked();

    // The test SMS goes through the provider (the embedded one records it) and shows in the log.
    await cards.nth(1).getByTestId('recipient-test').click();
    await expect(cards.nth(1).getByTestId('recipient-test-result')).toContainText(
      'テストのSMSを送りました',
    );
    const logRow = page
      .getByTestId('notification-log-row')
      .filter({ hasText: '+819011112222' })
      .first();
    await expect(logRow).toContainText(groupName);
    await expect(logRow.getByTestId('notification-log-status')).not.toHaveText('失敗');

    const log = await request.get('/v2/notifications?pageSize=20', { headers: auth(accessToken) });
    const entries = (
      (await log.json()) as {
        notifications: { channel: string; recipient: string; text: string }[];
      }
    ).notifications;
    expect(
      entries.some(
        (n) => n.channel === 'SMS' && n.recipient === '+819011112222' && n.text.includes(groupName),
      ),
    ).toBe(true);
  } finally {
    await request.delete(`/v2/group/${groupId}`, { headers: auth(accessToken) });
  }
});

test('bulk alert settings of a group: the preview counts the wearers that change, then the change is applied', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const groupId = await newGroup(request, accessToken, `E2E一括 ${Date.now()}`);
  const added = await request.post('/v2/user/wearer', {
    headers: auth(accessToken),
    data: {
      clientId: DEMO_CLIENT,
      name: `一括 テスト${Date.now() % 1000}`,
      birthDate: '1980-04-01',
      groupId,
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const wearer = (await added.json()) as { uid: string };
  try {
    await page.goto(`/groups/${groupId}/devices/alert-settings`);
    await waitForPage(page);
    await expect(page.getByTestId('bulk-wearer')).toHaveCount(1);

    // Nothing chosen: the form says so.
    await page.getByTestId('bulk-preview-submit').click();
    await expect(page.locator('#bulk-parts-error')).toBeVisible();

    // Heart-rate bounds 50..(each wearer's maximum): one wearer changes.
    await page.getByTestId('bulk-part-heartRate').check();
    await page.getByTestId('bulk-heartRateLower').fill('50');
    await page.getByTestId('bulk-preview-submit').click();
    await expect(page.getByTestId('bulk-preview-count')).toContainText('1 人のうち 1 人');
    await page.getByTestId('bulk-apply').click();
    await expect(page.getByText('1 人のアラート設定を保存しました。')).toBeVisible();
    await expect(page.getByTestId('bulk-wearer')).toContainText('心拍 50〜');

    // The same change again changes nobody.
    await page.getByTestId('bulk-preview-submit').click();
    await expect(page.getByTestId('bulk-preview-count')).toContainText('1 人のうち 0 人');

    const list = await request.get(`/v2/user/alertSettings/list?groupId=${groupId}`, {
      headers: auth(accessToken),
    });
    const settings = (
      (await list.json()) as { settings: { uid: string; settings: { heartRateLower: number } }[] }
    ).settings;
    expect(settings.find((s) => s.uid === wearer.uid)?.settings.heartRateLower).toBe(50);
  } finally {
    await request.delete(`/v2/user/wearer/${wearer.uid}`, { headers: auth(accessToken) });
    await request.delete(`/v2/group/${groupId}`, { headers: auth(accessToken) });
  }
});
