import type { SetupProgress, UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import setupEn from '../../../../public/locales/en/setup.json';
import setupJa from '../../../../public/locales/ja/setup.json';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import { json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const owner: UserInfo = {
  name: '新井',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'owner@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_OWNER',
  uid: 'u-owner',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
};
const progress = (done: Partial<Record<string, boolean>>): SetupProgress => {
  const steps = (
    ['groups', 'gateways', 'bracelets', 'wearers', 'pairing', 'recipients', 'testAlert'] as const
  ).map((step) => ({ step, done: done[step] === true, count: done[step] ? 1 : 0 }));
  return {
    clientId: 'org-1',
    name: 'さくら苑',
    kind: 'CARE_HOME',
    steps,
    done: steps.every((s) => s.done),
    lastTestAlert: null,
  };
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function open(path: string, lng: 'ja' | 'en' = 'ja', who: UserInfo = owner) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(who));
  session.reload();
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, {
    path,
    lng,
    namespaces: [{ ns: 'setup', ja: setupJa, en: setupEn }],
  });
}

describe('/setup', () => {
  it.each(['ja', 'en'] as const)(
    'lists the steps in order with their state and a link each (%s)',
    async (lng) => {
      const words = lng === 'ja' ? setupJa : setupEn;
      stubServer((url) => {
        if (url === '/v2/user') return json(200, owner);
        if (url === '/v2/client/org-1/setup') return json(200, progress({ groups: true }));
        return json(200, {});
      });
      await open('/setup', lng);
      const steps = await screen.findByTestId('setup-steps', undefined, SLOW);
      expect([...steps.querySelectorAll('li')].map((li) => li.getAttribute('data-testid'))).toEqual(
        [
          'setup-step-groups',
          'setup-step-gateways',
          'setup-step-bracelets',
          'setup-step-wearers',
          'setup-step-pairing',
          'setup-step-recipients',
          'setup-step-testAlert',
        ],
      );
      expect(screen.getByTestId('setup-step-groups').getAttribute('data-done')).toBe('true');
      expect(screen.getByTestId('setup-step-gateways').getAttribute('data-done')).toBe('false');
      expect(screen.getByTestId('setup-progress').textContent).toContain(
        lng === 'ja' ? '7 手順のうち 1 手順' : '1 of 7 steps',
      );
      expect(screen.getByTestId('setup-link-groups').getAttribute('href')).toBe('/settings/groups');
      expect(screen.getByTestId('setup-link-gateways').getAttribute('href')).toBe(
        '/settings/gateways',
      );
      // The page that adds one, its form open.
      expect(screen.getByTestId('setup-link-wearers').getAttribute('href')).toBe('/members?add=1');
      expect(screen.getByTestId('setup-link-recipients').getAttribute('href')).toBe('/groups');
      expect(screen.getByText(words.testAlert.needWearer)).toBeTruthy();
      // The menu leads with the checklist while it is not done.
      await waitFor(() =>
        expect(
          screen.getAllByText(lng === 'ja' ? 'はじめの設定' : 'Getting started').length,
        ).toBeGreaterThan(1),
      );
    },
  );

  it('sends a test alert for the chosen wearer, shows what happened and turns done once it is confirmed', async () => {
    let sent = false;
    let confirmed = false;
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, owner);
      if (url === '/v2/client/org-1/setup')
        return json(200, {
          ...progress({
            groups: true,
            gateways: true,
            bracelets: true,
            wearers: true,
            pairing: true,
            recipients: true,
            testAlert: confirmed,
          }),
          lastTestAlert: sent
            ? {
                id: 'al-1',
                wearerId: 'w-2',
                openedAt: '2026-12-01T00:00:00.000Z',
                noticesSent: 1,
                confirmed,
              }
            : null,
        });
      if (url.startsWith('/v2/user/device/list'))
        return json(200, {
          devices: [
            {
              uid: 'w-1',
              name: '青木',
              clientId: 'org-1',
              groupId: 'g1',
              groupName: 'A',
              wearableId: null,
              deviceName: null,
              serialNumber: null,
              gatewayId: null,
              battery: null,
            },
            {
              uid: 'w-2',
              name: '井上',
              clientId: 'org-1',
              groupId: 'g1',
              groupName: 'A',
              wearableId: null,
              deviceName: null,
              serialNumber: null,
              gatewayId: null,
              battery: null,
            },
          ],
        });
      if (url === '/v2/client/org-1/testAlert' && init?.method === 'POST') {
        sent = true;
        return json(201, { alertId: 'al-1', wearerId: 'w-2' });
      }
      return json(200, {});
    });
    await open('/setup');
    const select = await screen.findByTestId('setup-test-wearer', undefined, SLOW);
    await waitFor(() => expect(select.querySelectorAll('option')).toHaveLength(2));
    // Pairing starts on a wearer's bracelet page (the user list cannot pair): the first without one.
    const pairing = screen.getByTestId('setup-link-pairing');
    expect(pairing.getAttribute('href')).toBe('/devices/org-1/w-1/device_setting');
    expect(pairing.textContent).toBe('青木 さんのブレスレットを設定する');
    fireEvent.change(select, { target: { value: 'w-2' } });
    await act(async () => fireEvent.click(screen.getByTestId('setup-send-test')));
    await screen.findByTestId('setup-test-sent', undefined, SLOW);
    expect(calls.find((c) => c.url === '/v2/client/org-1/testAlert')?.body).toEqual({ uid: 'w-2' });
    const link = await screen.findByTestId('setup-confirm-link', undefined, SLOW);
    // The wearer's alerts, where it is confirmed (not the wearer's alert settings).
    expect(link.getAttribute('href')).toBe('/devices/org-1/w-2/alert_histories');
    // Confirmed on the alert's page (another tab, say): the checklist sees it within seconds, no reload.
    confirmed = true;
    await waitFor(
      () =>
        expect(screen.getByTestId('setup-step-testAlert').getAttribute('data-done')).toBe('true'),
      { timeout: 5_000 },
    );
    expect(screen.queryByTestId('setup-confirm-link')).toBeNull();
  });

  it('a platform owner opens an organisation by ?clientId=', async () => {
    const platform = { ...owner, role: 'ALL_OWNER' as const, mediromOrganizationId: null };
    stubServer((url) => {
      if (url === '/v2/user') return json(200, platform);
      if (url === '/v2/client/org-9/setup')
        return json(200, {
          ...progress({}),
          clientId: 'org-9',
          name: '第三現場',
          kind: 'CONSTRUCTION_SITE',
        });
      return json(200, {});
    });
    await open('/setup?clientId=org-9', 'en', platform);
    expect((await screen.findByTestId('setup-lead', undefined, SLOW)).textContent).toContain(
      '第三現場 (construction site)',
    );
  });
});
