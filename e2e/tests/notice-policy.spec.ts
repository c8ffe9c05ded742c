import type { APIRequestContext } from '@playwright/test';
import { axeFindings, setWidth, sidewaysOverflow, useLanguage, WIDTHS } from '../support/a11y.js';
import { idempotent } from '../support/api.js';
import { auth, newGroup, tabTo } from '../support/staff.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/*
 * Issue 14: notices grouped per recipient, through the real server and simulator. A group of its own
 * with one SMS recipient for heart-rate alerts and two wearers of its own; two heart-rate alerts a few
 * seconds apart: the first message goes at once, the second alert is held and logged with its reason,
 * and at the group window's end ONE message covers it. The notification log says so in ja and en.
 */

// The group window is shortened to one minute for this test (and given back); the wait is real.
// Both tests change the demo organisation's alert policy: they run in order in one worker, never
// at the same time (with fullyParallel they raced: one's policy read met the other's change).
test.describe.configure({ timeout: 180_000, mode: 'default', lock: 'demo-alert-policy' });

const GATEWAY_AUTH = 'Gateway demo-gateway-1:demo-gateway-secret-1';
const DAY = { enabled: true, startTime: '00:00', endTime: '23:59' };
const ALL_WEEK = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    DAY,
  ]),
);

async function ok(res: Awaited<ReturnType<APIRequestContext['get']>>, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

test('a second alert within the group window is held, logged with its reason, then sent as one grouped message (ja, en)', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const headers = { authorization: `Bearer ${accessToken}` };
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const phone = `+8190${stamp.slice(-8)}`;

  const policy = (await ok(
    await request.get(`/v2/organization/${DEMO_CLIENT}/alertPolicy`, { headers }),
  )) as { policy: { groupWindowMinutes: number } };
  const window = policy.policy.groupWindowMinutes;
  const group = (await ok(
    await request.post('/v2/group', {
      headers,
      data: { clientId: DEMO_CLIENT, name: `E2Eまとめ ${stamp}` },
    }),
    201,
  )) as { id: string };
  const wearers: string[] = [];
  try {
    await ok(
      await request.patch(`/v2/organization/${DEMO_CLIENT}/alertPolicy`, {
        headers,
        data: { groupWindowMinutes: 1 },
      }),
    );
    await ok(
      await request.put(`/v2/group/${group.id}/alertNoticeSettings`, {
        headers,
        data: {
          recipients: [
            {
              phoneNumber: phone,
              channel: 'SMS',
              alertTypes: ['HEART_RATE'],
              schedule: ALL_WEEK,
              order: 1,
            },
          ],
        },
      }),
    );
    const serials: string[] = [];
    for (const name of ['まとめ一郎', 'まとめ二郎']) {
      const wearer = (await ok(
        await request.post('/v2/user/wearer', {
          headers,
          data: {
            clientId: DEMO_CLIENT,
            name: `${name} ${stamp}`,
            birthDate: '1970-04-01',
            groupId: group.id,
          },
        }),
        201,
      )) as { uid: string };
      wearers.push(wearer.uid);
      const serialNumber = `E2E-NOTICE-${stamp}-${wearers.length}`;
      await ok(
        await request.post('/v2/device', {
          headers,
          data: { mediromOrganizationId: DEMO_CLIENT, serialNumber },
        }),
        201,
      );
      await ok(
        await request.post('/v2/user/device/link/gateway', {
          headers,
          data: {
            clientId: DEMO_CLIENT,
            uid: wearer.uid,
            gatewayId: 'demo-gateway-1',
            serialNumber,
          },
        }),
      );
      serials.push(serialNumber);
    }

    // A heart rate of 200 on the wrist, one wearer after the other: two HEART_RATE alerts.
    for (const serialNumber of serials) {
      const res = await request.post('/gateway/v1/batches', {
        headers: { authorization: GATEWAY_AUTH },
        data: {
          readings: [{ serialNumber, at: new Date().toISOString(), heartRate: 200, worn: true }],
        },
      });
      expect(res.status(), await res.text()).toBe(200);
    }

    await page.goto(`/groups/${group.id}/alert-notice-settings`);
    await waitForPage(page);
    const log = page.getByTestId('notification-log');
    const ours = log.getByTestId('notification-log-row').filter({ hasText: phone });
    const held = ours.filter({ hasText: '保留: まとめ時間内のため' });
    await expect(async () => {
      await log.getByTestId('notification-log-refresh').click();
      await expect(held).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(held.getByTestId('notification-log-status')).toHaveText('未送信');
    await expect(held.getByTestId('notification-log-covers')).toContainText('まとめ二郎');
    await expect(ours.filter({ hasText: '最初の通知: 即時に送信' })).toHaveCount(1);

    // At the window's end (one minute; the leader sweeps every 5 s) one message covers the held alert.
    const grouped = ours.filter({ hasText: 'まとめて送信: 保留していたアラートを1通に' });
    await expect(async () => {
      await log.getByTestId('notification-log-refresh').click();
      await expect(grouped).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 100_000, intervals: [2_000] });
    await expect(grouped).toContainText(`E2Eまとめ ${stamp}`);
    await expect(grouped.getByTestId('notification-log-covers')).toContainText('まとめ二郎');
    expect(await axeFindings(page, '[data-testid="notification-log"]')).toEqual([]);

    await useLanguage(page, 'en');
    await page.goto(`/groups/${group.id}/alert-notice-settings`);
    await waitForPage(page);
    const groupedEn = page
      .getByTestId('notification-log-row')
      .filter({ hasText: phone })
      .filter({ hasText: 'Grouped: the held alerts in one message' });
    await expect(groupedEn).toHaveCount(1);
    await expect(groupedEn.getByTestId('notification-log-covers')).toContainText('Covers 1');
    expect(await axeFindings(page, '[data-testid="notification-log"]')).toEqual([]);
  } finally {
    // After the minute's wait: the first request may meet the server's keep-alive timeout (support/api.ts).
    await idempotent(() =>
      request.patch(`/v2/organization/${DEMO_CLIENT}/alertPolicy`, {
        headers,
        data: { groupWindowMinutes: window },
      }),
    );
    for (const uid of wearers)
      await idempotent(() => request.delete(`/v2/user/wearer/${uid}`, { headers }));
    await idempotent(() => request.delete(`/v2/group/${group.id}`, { headers }));
  }
});

test('notification timing and limits: an owner changes the repeat interval by keyboard, it stays after a reload; general staff only read it', async ({
  page,
  request,
}) => {
  const { accessToken } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const policyUrl = `/v2/organization/${DEMO_CLIENT}/alertPolicy`;
  const before = (await (await request.get(policyUrl, { headers: auth(accessToken) })).json()) as {
    policy: { repeatIntervalMinutes: number };
  };
  const was = before.policy.repeatIntervalMinutes;
  const next = was === 45 ? 50 : 45;
  const groupId = await newGroup(request, accessToken, `E2E間隔 ${Date.now()}`);
  try {
    await page.goto(`/groups/${groupId}/alert-notice-settings`);
    await waitForPage(page);
    const section = page.getByRole('region', { name: '通知の間隔と上限' });
    const repeat = section.getByTestId('alert-policy-value-repeatIntervalMinutes');
    await expect(repeat).toHaveText(`${was}分`);

    const edit = section.getByTestId('alert-policy-edit');
    await tabTo(page, edit);
    await page.keyboard.press('Enter');
    // The form opens on its first setting; out of range is refused on the field, nothing sent.
    await expect(section.getByLabel('回復の待ち時間')).toBeFocused();
    const field = section.getByLabel('再通知の間隔');
    await field.fill('0');
    await page.keyboard.press('Enter');
    await expect(section.getByTestId('alert-policy-error-repeatIntervalMinutes')).toHaveText(
      '1以上にしてください',
    );
    await expect(field).toBeFocused();
    // The open form with its error: axe-clean, and no sideways scrolling on a phone.
    for (const width of WIDTHS) {
      await setWidth(page, width);
      expect(await axeFindings(page, '[data-testid="alert-policy"]'), `${width}px`).toEqual([]);
      expect(await sidewaysOverflow(page), `${width}px`).toBe(0);
    }
    await field.fill(String(next));
    await page.keyboard.press('Enter');
    await expect(page.getByText('通知の間隔と上限を保存しました')).toBeVisible();
    await expect(repeat).toHaveText(`${next}分`);
    await expect(edit).toBeFocused();

    await page.reload();
    await waitForPage(page);
    await expect(repeat).toHaveText(`${next}分`);
    await expect(section).toContainText('（初期値 30分）');

    // General staff see the same values and no form.
    await signIn(page, request, roleCase('ORGANIZATION_GENERAL').email);
    await page.goto(`/groups/${groupId}/alert-notice-settings`);
    await waitForPage(page);
    await expect(repeat).toHaveText(`${next}分`);
    await expect(section.getByTestId('alert-policy-read-only')).toBeVisible();
    await expect(section.getByTestId('alert-policy-edit')).toHaveCount(0);
  } finally {
    // The demo organisation's policy goes back to what it was, for the other files.
    await request.patch(policyUrl, {
      headers: auth(accessToken),
      data: { repeatIntervalMinutes: was },
    });
    await request.delete(`/v2/group/${groupId}`, { headers: auth(accessToken) });
  }
});
