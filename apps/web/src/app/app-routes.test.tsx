import type { DeviceSummary, UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../lib/session';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../testing/render';
import { summaryColumnsBody } from '../testing/summary-columns';
import { routes } from './routes';

const wearer = (uid: string, name: string): DeviceSummary => ({
  uid,
  name,
  clientId: 'org-1',
  groupId: 'g-1',
  groupName: '第一班',
  deviceName: `Band ${uid}`,
  serialNumber: `SN-${uid}`,
  heartRate: 70,
  skinTemperature: 34,
  worn: true,
  battery: 80,
  connection: 'online',
  lastSeenAt: new Date().toISOString(),
  openAlerts: [],
});
const WEARERS = [wearer('u2', '佐藤 一郎'), wearer('u1', '青木 花子'), wearer('u3', '田中 次郎')];

const user = (role: UserInfo['role'], extra: Partial<UserInfo> = {}): UserInfo => ({
  name: `${role} さん`,
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'someone@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
  ...extra,
});

// Lazy page chunks are transformed on first use; on a loaded shared machine that can take seconds.
vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

/** The app's route tree at `path`; window.location follows because the API client reads it for demo mode. */
async function openApp(path: string, lng: 'ja' | 'en' = 'ja') {
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path, lng });
}

function signInAs(info: UserInfo, selectedDevice?: UserInfo['devices'][number]) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(info));
  if (selectedDevice) localStorage.setItem('selectedDevice', JSON.stringify(selectedDevice));
  session.reload();
}

const heading = () => screen.findByTestId('page-heading', undefined, SLOW);
const internalHrefs = () =>
  [...document.querySelectorAll('a[href]')]
    .filter(
      (a) => a.getAttribute('target') !== '_blank' && !a.getAttribute('href')?.startsWith('#'),
    )
    .map((a) => a.getAttribute('href'));

// First in the file: it follows one sign-in from a signed-out page to the page asked for.
describe('returning after sign-in', () => {
  it('after sign-in opens the page asked for while signed out (an alert SMS link), not /devices', async () => {
    stubServer((url) => {
      if (url === '/v2/auth/signIn')
        return json(200, {
          accessToken: 'a1',
          refreshToken: 'r1',
          tokenType: 'Bearer',
          expiresIn: 900,
          refreshExpiresIn: 3600,
        });
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      return json(404, {});
    });
    await openApp('/alert-histories?status=open');
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.login.title),
      SLOW,
    );
    fireEvent.change(screen.getByLabelText(ja.login.email), { target: { value: 'o@example.com' } });
    fireEvent.change(screen.getByLabelText(ja.login.password), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.alertHistories),
      SLOW,
    );
    expect(localStorage.getItem('returnTo')).toBeNull();
  });
});

describe('demo mode', () => {
  it('shows the demo wearers from /demo-api with every internal link under /demo, no terms modal, no session', async () => {
    const calls = stubServer((url) => {
      if (url === '/demo-api/v2/user')
        return json(
          200,
          user('ORGANIZATION_OWNER', { name: 'デモ 太郎', agreedTermsOfUse: false }),
        );
      if (url.startsWith('/demo-api/v3/device/summary'))
        return json(200, summaryColumnsBody(WEARERS));
      return json(404, {});
    });
    await openApp('/demo/devices');
    expect((await heading()).textContent).toBe(ja.pages.devices);
    await screen.findByText('青木 花子', undefined, SLOW);
    expect(screen.getByTestId('demo-banner-text').textContent).toBe(ja.shell.demoBanner);
    // "Set up your own" leaves the demo in a new tab, like the terms (not an internal link of the demo area).
    const setUp = screen.getByTestId('demo-set-up-your-own');
    expect([setUp.getAttribute('href'), setUp.getAttribute('target')]).toEqual([
      '/setup',
      '_blank',
    ]);
    expect(screen.queryByTestId('terms-modal')).toBeNull();
    expect(screen.getByTestId('user-menu').textContent).toContain('デモ 太郎');
    const hrefs = internalHrefs();
    expect(hrefs.length).toBeGreaterThan(5);
    expect(hrefs.filter((href) => !href?.startsWith('/demo/'))).toEqual([]);
    const menu = within(screen.getByTestId('main-menu'))
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(menu).toEqual([
      '/demo/devices',
      '/demo/members?add=1',
      '/demo/alert-histories',
      '/demo/map',
      '/demo/settings/admins',
    ]);
    expect(screen.getByTestId('logo-link').getAttribute('href')).toBe('/demo/devices');
    expect(calls.every((call) => call.url.startsWith('/demo-api/'))).toBe(true);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('falls back to a built-in organisation owner when /demo-api has no user, and /demo opens /demo/devices', async () => {
    stubServer(() => json(503, {}));
    await openApp('/demo');
    expect((await heading()).textContent).toBe(ja.pages.devices);
    expect(screen.getByTestId('user-menu').textContent).toContain('デモ 管理者');
    expect(within(screen.getByTestId('main-menu')).getAllByRole('link')).toHaveLength(5);
    await screen.findByTestId('page-error', undefined, SLOW);
  });
});

describe('signed-in console', () => {
  it('lists the wearers with group, bracelet and battery, and the sort select reverses them without asking again', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url.startsWith('/v3/device/summary')) return json(200, summaryColumnsBody(WEARERS));
      return json(404, {});
    });
    signInAs(user('ORGANIZATION_OWNER'));
    await openApp('/devices');
    await screen.findByText('青木 花子', undefined, SLOW);
    const names = () =>
      screen.getAllByTestId('wearer-row').map((row) => row.querySelector('a')?.textContent);
    expect(names()).toEqual(
      ['青木 花子', '佐藤 一郎', '田中 次郎'].sort(new Intl.Collator('ja').compare),
    );
    const ascending = names();
    const row = screen.getAllByTestId('wearer-row')[0]!;
    expect(row.textContent).toContain('第一班');
    expect(row.textContent).toContain('Band');
    expect(row.textContent).toContain('80%');
    const sort = screen.getByLabelText(ja.devices.sortLabel);
    expect(sort).toBe(screen.getByTestId('sort-select'));
    fireEvent.change(sort, { target: { value: 'name_desc' } });
    await waitFor(() => expect(names()).toEqual([...ascending].reverse()), SLOW);
    // The list is sorted in memory: one summary request, none for the new order.
    expect(calls.filter((call) => call.url.startsWith('/v3/device/summary'))).toHaveLength(1);
  });

  it('shows the empty state', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      return json(200, summaryColumnsBody([]));
    });
    signInAs(user('ORGANIZATION_OWNER'));
    await openApp('/devices');
    expect((await screen.findByTestId('page-empty', undefined, SLOW)).textContent).toBe(
      ja.devices.empty,
    );
  });

  it('shows the error state', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      return json(500, { statusCode: 500, error: 'x', message: 'x', code: 'INTERNAL' });
    });
    signInAs(user('ORGANIZATION_OWNER'));
    await openApp('/devices');
    expect((await screen.findByTestId('page-error', undefined, SLOW)).textContent).toContain(
      ja.common.loadFailed,
    );
  });

  it('shows the terms modal to a user who has not agreed', async () => {
    stubServer((url) =>
      url === '/v2/user'
        ? json(200, user('ORGANIZATION_GENERAL', { agreedTermsOfUse: false }))
        : json(200, { devices: [] }),
    );
    signInAs(user('ORGANIZATION_GENERAL', { agreedTermsOfUse: false }));
    await openApp('/devices');
    await screen.findByTestId('terms-modal', undefined, SLOW);
  });

  it('without a token any page shows the login form', async () => {
    stubServer(() => json(401, {}));
    await openApp('/settings/admins');
    expect((await heading()).textContent).toBe(ja.login.title);
    expect(screen.getByLabelText(ja.login.email)).toBeTruthy();
  });

  it('logout signs out, clears localStorage and shows /login', async () => {
    const calls = stubServer((url) =>
      url === '/v2/user' ? json(200, user('PERSONAL_SELF')) : json(200, {}),
    );
    signInAs(user('PERSONAL_SELF'));
    localStorage.setItem('somethingElse', '1');
    await openApp('/user/record', 'en');
    expect((await heading()).textContent).toBe(en.pages.userRecord);
    const trigger = screen.getByTestId('user-menu');
    expect(trigger.textContent).toContain('PERSONAL_SELF さん');
    fireEvent.pointerDown(trigger, { button: 0, pointerType: 'mouse' });
    const logout = await screen.findByTestId('logout', undefined, SLOW);
    await act(async () => {
      fireEvent.click(logout);
    });
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(en.login.title),
      SLOW,
    );
    expect(calls.some((call) => call.method === 'POST' && call.url === '/v2/auth/signOut')).toBe(
      true,
    );
    expect(localStorage.length).toBe(0);
  });
});

describe('login form', () => {
  const failWith = async (status: number, code: string, retryAfterSeconds?: number) => {
    stubServer((url) =>
      url.endsWith('/v2/auth/methods')
        ? json(200, { methods: ['password', 'emailLink'], oidc: null })
        : json(status, {
            statusCode: status,
            error: 'x',
            message: 'server text',
            code,
            retryAfterSeconds,
          }),
    );
    await openApp('/login');
    await heading();
    fireEvent.change(screen.getByLabelText(ja.login.email), { target: { value: 'a@example.com' } });
    fireEvent.change(
      screen.getByLabelText(ja.login.password, { selector: 'input[type=password]' }),
      {
        target: { value: 'wrong' },
      },
    );
    fireEvent.click(screen.getByTestId('login-submit'));
    return (await screen.findByRole('alert', undefined, SLOW)).textContent;
  };

  it('translates the server error by code', async () => {
    expect(await failWith(401, 'INVALID_CREDENTIALS')).toBe(ja.login.errors.INVALID_CREDENTIALS);
  });

  it('says when there were too many attempts, for how long, and offers the email link', async () => {
    expect(await failWith(429, 'TOO_MANY_ATTEMPTS', 7 * 60 - 20)).toBe(
      ja.login.errors.TOO_MANY_ATTEMPTS_other.replace('{{count}}', '7'),
    );
    fireEvent.click(screen.getByRole('button', { name: ja.login.useEmailLink }));
    expect(await screen.findByLabelText(ja.login.email, undefined, SLOW)).toBeTruthy();
    expect(
      screen.queryByLabelText(ja.login.password, { selector: 'input[type=password]' }),
    ).toBeNull();
  });

  it('says when guessing from elsewhere paused password sign-in for the account, and what still works', async () => {
    expect(await failWith(429, 'PASSWORD_SIGN_IN_PAUSED')).toBe(
      ja.login.errors.PASSWORD_SIGN_IN_PAUSED,
    );
  });

  it('falls back to a generic message', async () => {
    expect(await failWith(500, 'SOMETHING_ELSE')).toBe(ja.login.errors.generic);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('on success stores tokens, login time and user, then a PERSONAL user is sent to /select-device', async () => {
    const personal = user('PERSONAL', {
      devices: [
        {
          deviceId: 'd1',
          deviceName: 'Band A',
          uid: 'w1',
          usingWearableId: 'w-1',
          name: '祖母 ハナ',
        },
      ],
    });
    stubServer((url) => {
      if (url === '/v2/auth/signIn')
        return json(200, {
          accessToken: 'a1',
          refreshToken: 'r1',
          tokenType: 'Bearer',
          expiresIn: 900,
          refreshExpiresIn: 3600,
        });
      if (url === '/v2/user') return json(200, personal);
      return json(404, {});
    });
    await openApp('/login');
    await heading();
    fireEvent.change(screen.getByLabelText(ja.login.email), { target: { value: 'p@example.com' } });
    fireEvent.change(screen.getByLabelText(ja.login.password), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.selectDevice),
      SLOW,
    );
    expect(localStorage.getItem('accessToken')).toBe('a1');
    expect(localStorage.getItem('refreshExpiresIn')).toBe('3600');
    expect(Number(localStorage.getItem('loginTime'))).toBeGreaterThan(0);
    expect(JSON.parse(localStorage.getItem('userInfo') ?? '{}')).toEqual(personal);
    fireEvent.click(screen.getByRole('button', { name: /祖母 ハナ/ }));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.userRecord),
      SLOW,
    );
    expect(JSON.parse(localStorage.getItem('selectedDevice') ?? '{}')).toEqual(personal.devices[0]);
  });
});
