import type { UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import setupEn from '../../../../public/locales/en/setup.json';
import setupJa from '../../../../public/locales/ja/setup.json';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

const TOKEN = 't'.repeat(43);
const PREVIEW = {
  email: 'new@example.com',
  role: 'ORGANIZATION_GENERAL',
  organizationName: 'さくら介護',
  inviterName: '青木 花子',
  wearerName: null,
  expiresAt: '2026-11-29T00:00:00.000Z',
};
const me: UserInfo = {
  name: '佐藤',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'new@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_GENERAL',
  uid: 'u-new',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
};
const PAIR = {
  accessToken: 'a1',
  refreshToken: 'r1',
  tokenType: 'Bearer',
  expiresIn: 900,
  refreshExpiresIn: 3600,
};

async function openVerify(lng: 'ja' | 'en' = 'ja') {
  window.history.replaceState(null, '', `/verify#invite=${TOKEN}`);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path: '/verify', lng });
}

describe('/verify#invite=: registration', () => {
  it('shows who invited whom, checks the form as the server does, registers and signs in', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user/invitation/inspect') return json(200, PREVIEW);
      if (url === '/v2/user/register') return json(200, PAIR);
      if (url === '/v2/user') return json(200, me);
      return json(200, { devices: [] });
    });
    await openVerify();
    expect(
      (await screen.findByTestId('invitation-summary', undefined, SLOW)).textContent,
    ).toContain('さくら介護');
    expect(window.location.hash).toBe('');
    fireEvent.change(screen.getByTestId('register-name'), { target: { value: '佐藤 一郎' } });
    fireEvent.change(screen.getByTestId('register-password'), { target: { value: 'short-pass' } });
    await act(async () => fireEvent.click(screen.getByTestId('register-submit')));
    expect(screen.getByText(ja.register.errors.password.replace('{{min}}', '12'))).toBeTruthy();
    expect(screen.getByText(ja.register.errors.agreedToTerms)).toBeTruthy();
    expect(calls.some((c) => c.url === '/v2/user/register')).toBe(false);

    fireEvent.change(screen.getByTestId('register-password'), {
      target: { value: 'a-long-password-2026' },
    });
    fireEvent.click(screen.getByTestId('register-terms'));
    await act(async () => fireEvent.click(screen.getByTestId('register-submit')));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.devices),
      SLOW,
    );
    expect(calls.find((c) => c.url === '/v2/user/register')?.body).toMatchObject({
      token: TOKEN,
      email: 'new@example.com',
      name: '佐藤 一郎',
      password: 'a-long-password-2026',
      agreedToTerms: true,
      locale: 'ja',
    });
    expect(localStorage.getItem('accessToken')).toBe('a1');
  });

  it("a new organisation's owner finds the name the inviter typed and lands on the setup checklist", async () => {
    const ownerMe: UserInfo = { ...me, role: 'ORGANIZATION_OWNER' };
    const calls = stubServer((url) => {
      if (url === '/v2/user/invitation/inspect')
        return json(200, { ...PREVIEW, role: 'ORGANIZATION_OWNER', name: '新井 太郎' });
      if (url === '/v2/user/register') return json(200, PAIR);
      if (url === '/v2/user') return json(200, ownerMe);
      if (url === '/v2/client/org-1/setup')
        return json(200, {
          clientId: 'org-1',
          name: 'さくら介護',
          kind: 'CARE_HOME',
          steps: [],
          done: false,
          lastTestAlert: null,
        });
      return json(200, {});
    });
    window.history.replaceState(null, '', `/verify#invite=${TOKEN}`);
    await renderWithApp(<RoutesUnderTest routes={routes} />, {
      path: '/verify',
      namespaces: [{ ns: 'setup', ja: setupJa, en: setupEn }],
    });
    const name = await screen.findByTestId('register-name', undefined, SLOW);
    expect((name as HTMLInputElement).value).toBe('新井 太郎');
    fireEvent.change(screen.getByTestId('register-password'), {
      target: { value: 'a-long-password-2026' },
    });
    fireEvent.click(screen.getByTestId('register-terms'));
    await act(async () => fireEvent.click(screen.getByTestId('register-submit')));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(setupJa.title),
      SLOW,
    );
    expect(calls.find((c) => c.url === '/v2/user/register')?.body).toMatchObject({
      name: '新井 太郎',
    });
  });

  it("opens in the invitation's language, whatever the browser had, and registers in it", async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user/invitation/inspect') return json(200, { ...PREVIEW, locale: 'en' });
      if (url === '/v2/user/register') return json(200, PAIR);
      if (url === '/v2/user') return json(200, me);
      return json(200, { devices: [] });
    });
    await openVerify('ja');
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(en.register.title),
      SLOW,
    );
    fireEvent.change(await screen.findByTestId('register-name', undefined, SLOW), {
      target: { value: 'Ichiro Sato' },
    });
    fireEvent.change(screen.getByTestId('register-password'), {
      target: { value: 'a-long-password-2026' },
    });
    fireEvent.click(screen.getByTestId('register-terms'));
    await act(async () => fireEvent.click(screen.getByTestId('register-submit')));
    await waitFor(() => expect(calls.some((c) => c.url === '/v2/user/register')).toBe(true), SLOW);
    expect(calls.find((c) => c.url === '/v2/user/register')?.body).toMatchObject({
      locale: 'en',
    });
  });

  it.each([
    'INVITATION_USED',
    'INVITATION_EXPIRED',
    'INVITATION_UNKNOWN',
    'INVITATION_REPLACED',
  ] as const)('a %s link gets its own page', async (code) => {
    stubServer(() =>
      json(code === 'INVITATION_UNKNOWN' ? 404 : 410, {
        statusCode: 410,
        error: 'x',
        message: 'm',
        code,
      }),
    );
    await openVerify('en');
    await waitFor(
      () =>
        expect(screen.getByTestId('page-heading').textContent).toBe(en.register.errors[code].title),
      SLOW,
    );
    expect(screen.getByRole('alert').textContent).toBe(en.register.errors[code].body);
  });
});
