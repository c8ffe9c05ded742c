import type { APIRequestContext } from '@playwright/test';
import { axeFindings, setWidth, sidewaysOverflow, useLanguage } from '../support/a11y.js';
import { idempotent } from '../support/api.js';
import { startPushService } from '../support/push-service.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { expect, test } from '../support/test.js';
import { DEMO_CLIENT } from './live-gateway.js';

/*
 * Issue 38 item 1, told in Chromium through the real server: an organisation owner subscribes this browser
 * on /user/info, an SOS of a wearer of the story's own group reaches the console's service worker by Web
 * Push, the notification says who, what and where with 確認 and 詳細, and 確認 confirms the alert with the
 * owner's own session, which ends its escalation (the SMS of step 2 never goes).
 *
 * Chromium cannot reach a real push service here, so the page's `pushManager.subscribe()` is answered by the
 * push service faked on this machine (support/push-service.ts): the init script below hands the page the
 * fake's endpoint and a P-256 key pair and auth secret the fake made, as a browser's subscription would be.
 * Everything after that is real: the page posts that subscription to the server, the server encrypts
 * (RFC 8291) and signs (RFC 8292) the push, the fake checks the JWT and decrypts the body with the private
 * key, and the decrypted message is delivered to the real service worker through the DevTools protocol
 * (ServiceWorker.deliverPushMessage), which is what Chromium's push stack does after decrypting.
 */
test.describe.configure({ timeout: 120_000 });
// The full browser: the headless shell has no notification permission to grant (showNotification is refused).
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  },
});

const DAY = { enabled: true, startTime: '00:00', endTime: '23:59' };
const ALL_WEEK = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    DAY,
  ]),
);
const GATEWAY_AUTH = 'Gateway demo-gateway-1:demo-gateway-secret-1';

async function ok(res: Awaited<ReturnType<APIRequestContext['get']>>, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

test('an SOS reaches this browser by Web Push; 確認 in the notification confirms it and ends its escalation', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const push = await startPushService();
  const stand = push.subscription();
  await context.grantPermissions(['notifications']);
  await page.addInitScript((sub) => {
    // The fake push service's subscription stands in for Chromium's (see the comment above).
    let current: PushSubscription | null = null;
    const make = () =>
      ({
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => sub,
        unsubscribe: () => {
          current = null;
          return Promise.resolve(true);
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = function () {
      current = make();
      return Promise.resolve(current);
    };
    PushManager.prototype.getSubscription = () => Promise.resolve(current);
  }, stand);

  const { accessToken, user } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
  const headers = { authorization: `Bearer ${accessToken}` };
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const group = (await ok(
    await request.post('/v2/group', {
      headers,
      data: { clientId: DEMO_CLIENT, name: `E2Eプッシュ ${stamp}` },
    }),
    201,
  )) as { id: string };
  let wearerUid = '';
  try {
    // The account page: subscribe this browser.
    await page.goto('/user/info');
    await waitForPage(page);
    const section = page.getByTestId('push-settings');
    await section.getByTestId('push-subscribe').click();
    await expect(section.getByTestId('push-status')).toHaveText('この端末で通知を受け取ります。');
    const item = section.getByTestId('push-item').filter({ hasText: 'この端末' });
    await expect(item).toContainText('Chrome');
    await expect(section.getByTestId('push-unsubscribe')).toBeVisible();
    expect(await axeFindings(page, '[data-testid="push-settings"]')).toEqual([]);
    await setWidth(page, 360);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeFindings(page, '[data-testid="push-settings"]')).toEqual([]);
    await useLanguage(page, 'en');
    await page.goto('/user/info');
    await waitForPage(page);
    await expect(section.getByRole('heading', { name: 'Push notifications' })).toBeVisible();
    await expect(
      section.getByTestId('push-item').filter({ hasText: 'This browser' }),
    ).toBeVisible();
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeFindings(page, '[data-testid="push-settings"]')).toEqual([]);
    await setWidth(page, 1280);
    expect(await axeFindings(page, '[data-testid="push-settings"]')).toEqual([]);
    await useLanguage(page, 'ja');

    // The story's group: the owner by push first, a number by SMS at step 2; a wearer and bracelet of its own.
    const phone = `+8190${stamp.slice(-8)}`;
    await ok(
      await request.put(`/v2/group/${group.id}/alertNoticeSettings`, {
        headers,
        data: {
          recipients: [
            {
              userId: user.uid,
              channel: 'PUSH',
              alertTypes: ['SOS_CALL'],
              schedule: ALL_WEEK,
              order: 1,
            },
            {
              phoneNumber: phone,
              channel: 'SMS',
              alertTypes: ['SOS_CALL'],
              schedule: ALL_WEEK,
              order: 2,
            },
          ],
        },
      }),
    );
    const name = `プッシュ太郎 ${stamp}`;
    const wearer = (await ok(
      await request.post('/v2/user/wearer', {
        headers,
        data: { clientId: DEMO_CLIENT, name, birthDate: '1970-04-01', groupId: group.id },
      }),
      201,
    )) as { uid: string };
    wearerUid = wearer.uid;
    const serialNumber = `E2E-PUSH-${stamp}`;
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
        data: { clientId: DEMO_CLIENT, uid: wearer.uid, gatewayId: 'demo-gateway-1', serialNumber },
      }),
    );

    // The page is controlled by the console's service worker (registered at load, clients.claim()).
    await page.goto('/devices');
    await waitForPage(page);
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);

    const sos = await request.post('/gateway/v1/batches', {
      headers: { authorization: GATEWAY_AUTH },
      data: { events: [{ serialNumber, type: 'SOS', at: new Date().toISOString() }] },
    });
    expect(sos.status(), await sos.text()).toBe(200);
    await expect.poll(() => push.delivered.length, { timeout: 20_000 }).toBe(1);
    expect(push.refused).toEqual([]);
    const message = push.delivered[0]!;
    const payload = JSON.parse(message.plaintext) as {
      alertId: string;
      title: string;
      body: string;
    };
    expect(payload.title).toContain(name);

    // Deliver it to the service worker as Chromium's push stack would.
    const cdp = await context.newCDPSession(page);
    const registered = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        const reg = e.registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
        if (reg) resolve(reg.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registered;
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseURL!,
      registrationId,
      data: message.plaintext,
    });

    // The notification: who and what, where, with 確認 and 詳細, kept until answered (EMERGENCY).
    const shown = () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration('/');
        return (await reg!.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          requireInteraction: n.requireInteraction,
          actions: (n as unknown as { actions: { action: string; title: string }[] }).actions.map(
            (a) => ({ action: a.action, title: a.title }),
          ),
        }));
      });
    await expect.poll(async () => (await shown()).length, { timeout: 10_000 }).toBe(1);
    const [notification] = await shown();
    expect(notification!.title).toBe(`【緊急】${name}さん`);
    expect(notification!.body).toContain('SOS発信');
    expect(notification!.body).toContain(`E2Eプッシュ ${stamp}`);
    expect(notification!.tag).toBe(payload.alertId);
    expect(notification!.requireInteraction).toBe(true);
    expect(notification!.actions).toEqual([
      { action: 'confirm', title: '確認' },
      { action: 'details', title: '詳細' },
    ]);

    // 確認: the notificationclick the browser fires for the action, in the service worker.
    const worker = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'));
    expect(worker).toBeDefined();
    await worker!.evaluate(async () => {
      // In the worker's global scope (no worker types in this project's lib).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (
          type: string,
          init: { notification: Notification; action: string },
        ) => Event;
      };
      const [n] = await scope.registration.getNotifications();
      scope.dispatchEvent(
        new scope.NotificationEvent('notificationclick', { notification: n!, action: 'confirm' }),
      );
    });
    await expect(page).toHaveURL(new RegExp(`/alerts/${payload.alertId}/confirm$`));
    await expect(page.getByTestId('alert-confirm-done')).toHaveText('アラートを確認しました。');
    expect(await axeFindings(page, '[data-testid="alert-confirm"]')).toEqual([]);

    // Confirmed with the owner's own session, and the escalation ended: step 2's SMS never goes.
    const timeline = (await ok(
      await request.get(`/v2/alert/${payload.alertId}/timeline`, { headers }),
    )) as {
      events: {
        kind: string;
        reason?: string;
        channel?: string;
        step?: number;
        by?: { uid: string };
      }[];
    };
    expect(timeline.events.find((e) => e.kind === 'confirmed')?.by?.uid).toBe(user.uid);
    expect(timeline.events.find((e) => e.kind === 'escalationEnded')?.reason).toBe('confirmed');
    expect(
      timeline.events.filter((e) => e.kind === 'notification').map((e) => [e.step, e.channel]),
    ).toEqual([[1, 'PUSH']]);
  } finally {
    const list = (await (await request.get('/v2/user/push/subscriptions', { headers })).json()) as {
      subscriptions: { id: string }[];
    };
    for (const s of list.subscriptions)
      await idempotent(() => request.delete(`/v2/user/push/subscriptions/${s.id}`, { headers }));
    if (wearerUid)
      await idempotent(() => request.delete(`/v2/user/wearer/${wearerUid}`, { headers }));
    await idempotent(() => request.delete(`/v2/group/${group.id}`, { headers }));
    await push.close();
  }
});
