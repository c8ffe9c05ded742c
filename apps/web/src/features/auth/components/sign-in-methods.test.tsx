import type { UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
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

const staff: UserInfo = {
  name: 'スタッフ さん',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'staff@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_GENERAL',
  uid: 'uid-staff',
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
const METHODS = { methods: ['password', 'emailLink', 'phone'], oidc: null };

async function openApp(path: string, lng: 'ja' | 'en' = 'ja') {
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path: path.split('#')[0], lng });
}
const heading = () => screen.findByTestId('page-heading', undefined, SLOW);

describe('login page: the methods the server offers', () => {
  it('offers only the password form when the server names no other method', async () => {
    stubServer((url) =>
      url === '/v2/auth/methods' ? json(200, { methods: ['password'], oidc: null }) : json(404, {}),
    );
    await openApp('/login');
    await heading();
    expect(screen.getByLabelText(ja.login.password)).toBeTruthy();
    expect(screen.queryByRole('group', { name: ja.login.methods.legend })).toBeNull();
  });

  it('sends a sign-in link in the page language and says so, the same for any address', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/auth/methods') return json(200, METHODS);
      if (url === '/v2/auth/emailLink') return json(202, { accepted: true });
      return json(404, {});
    });
    await openApp('/login', 'en');
    await heading();
    const group = await screen.findByRole('group', { name: en.login.methods.legend }, SLOW);
    expect(group).toBeTruthy();
    fireEvent.click(screen.getByLabelText(en.login.methods.emailLink));
    fireEvent.change(screen.getByLabelText(en.login.email), {
      target: { value: 'not-an-address' },
    });
    fireEvent.click(screen.getByTestId('email-link-submit'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      en.signInLink.errors.VALIDATION_FAILED,
    );
    expect(calls.filter((c) => c.url === '/v2/auth/emailLink')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(en.login.email), {
      target: { value: 'Staff@Example.com' },
    });
    fireEvent.click(screen.getByTestId('email-link-submit'));
    const sent = await screen.findByTestId('email-link-sent', undefined, SLOW);
    expect(sent.textContent).toBe(en.signInLink.sent.replace('{{email}}', 'Staff@Example.com'));
    expect(calls.find((c) => c.url === '/v2/auth/emailLink')?.body).toEqual({
      email: 'Staff@Example.com',
      locale: 'en',
    });
    expect(localStorage.getItem('emailLinkAddress')).toBe('staff@example.com');
  });

  it('signs in with an SMS code: number first (checked as the server does), then the code', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/auth/methods') return json(200, METHODS);
      if (url === '/v2/auth/phoneCode') return json(202, { accepted: true });
      if (url === '/v2/auth/phoneSignIn') {
        const last = calls.at(-1)?.body as { code: string };
        return last.code === '123456'
          ? json(200, PAIR)
          : json(401, { statusCode: 401, error: 'x', message: 'm', code: 'INVALID_CODE' });
      }
      if (url === '/v2/user') return json(200, staff);
      return json(404, {});
    });
    await openApp('/login');
    await heading();
    fireEvent.click(await screen.findByLabelText(ja.login.methods.phone, undefined, SLOW));
    fireEvent.change(screen.getByLabelText(ja.phoneSignIn.phoneNumber), {
      target: { value: '090-1234-5678' },
    });
    fireEvent.click(screen.getByTestId('phone-send-code'));
    expect((await screen.findByRole('alert')).textContent).toBe(ja.phoneSignIn.errors.badPhone);

    fireEvent.change(screen.getByLabelText(ja.phoneSignIn.phoneNumber), {
      target: { value: '+81 90 1234 5678' },
    });
    fireEvent.click(screen.getByTestId('phone-send-code'));
    const code = await screen.findByLabelText(ja.phoneSignIn.code, undefined, SLOW);
    expect(calls.find((c) => c.url === '/v2/auth/phoneCode')?.body).toEqual({
      phoneNumber: '+819012345678',
      locale: 'ja',
    });
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByTestId('phone-submit'));
    expect((await screen.findByTestId('phone-error', undefined, SLOW)).textContent).toBe(
      ja.phoneSignIn.errors.INVALID_CODE,
    );
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('phone-submit'));
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.devices),
      SLOW,
    );
    expect(localStorage.getItem('accessToken')).toBe('a1');
  });
});

describe('/verify', () => {
  it('signs in with the link of the fragment, with the address this browser asked for, and clears the fragment', async () => {
    localStorage.setItem('emailLinkAddress', 'staff@example.com');
    const calls = stubServer((url) => {
      if (url === '/v2/auth/emailLink/verify') return json(200, PAIR);
      if (url === '/v2/user') return json(200, staff);
      return json(404, {});
    });
    await openApp('/verify#signin=tok_123');
    await waitFor(
      () => expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.devices),
      SLOW,
    );
    expect(calls.filter((c) => c.url === '/v2/auth/emailLink/verify').map((c) => c.body)).toEqual([
      { token: 'tok_123', email: 'staff@example.com' },
    ]);
    expect(window.location.hash).toBe('');
    expect(localStorage.getItem('accessToken')).toBe('a1');
  });

  it.each(['LINK_USED', 'LINK_EXPIRED', 'LINK_UNKNOWN', 'LINK_OTHER_ADDRESS'] as const)(
    'a %s link gets its own page with a way to a new link',
    async (code) => {
      stubServer(() =>
        json(code === 'LINK_UNKNOWN' || code === 'LINK_OTHER_ADDRESS' ? 401 : 410, {
          statusCode: 410,
          error: 'x',
          message: 'm',
          code,
        }),
      );
      await openApp('/verify#signin=tok_123', 'en');
      await waitFor(
        () =>
          expect(screen.getByTestId('page-heading').textContent).toBe(en.verify.errors[code].title),
        SLOW,
      );
      expect(screen.getByRole('alert').textContent).toBe(en.verify.errors[code].body);
      expect(screen.getByRole('link', { name: en.verify.requestNew }).getAttribute('href')).toBe(
        '/login',
      );
    },
  );

  it('asks for the TOTP code when the account needs its second factor', async () => {
    stubServer((url) =>
      url === '/v2/auth/emailLink/verify'
        ? json(200, {
            mfaRequired: true,
            code: 'TOTP_REQUIRED',
            challenge: 'c'.repeat(43),
            expiresIn: 300,
            factors: ['totp'],
          })
        : json(404, {}),
    );
    await openApp('/verify#signin=tok_123');
    expect(await screen.findByText(ja.totp.stepLead, undefined, SLOW)).toBeTruthy();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('without a link explains where links come from', async () => {
    stubServer(() => json(404, {}));
    await openApp('/verify');
    expect((await heading()).textContent).toBe(ja.verify.title);
    expect(screen.getByText(ja.verify.body)).toBeTruthy();
  });
});
