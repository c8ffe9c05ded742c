import type { UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAccessToken } from '../../../lib/storage';
import { en, json, renderWithApp, stubServer } from '../../../testing/render';
import { LoginPage } from './login-page';
import { OidcCallbackPage } from './oidc-callback-page';

const user: UserInfo = {
  name: 'Hana',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'hana@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_GENERAL',
  uid: 'u-1',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
};
const pair = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  tokenType: 'Bearer',
  expiresIn: 900,
  refreshExpiresIn: 3600,
};
const challenge = {
  mfaRequired: true,
  code: 'TOTP_REQUIRED',
  challenge: 'c'.repeat(43),
  expiresIn: 300,
  factors: ['totp'],
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

async function typeAndSubmit(fields: Record<string, string>, button: string) {
  for (const [label, value] of Object.entries(fields))
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  await act(async () => {
    fireEvent.click(screen.getByTestId(button));
  });
}

describe('login with a TOTP second step', () => {
  it('asks for the code after the password, and signs in with it', async () => {
    let wrongOnce = true;
    const calls = stubServer((url) => {
      if (url === '/v2/auth/methods') return json(200, { methods: ['password'], oidc: null });
      if (url === '/v2/auth/signIn') return json(200, challenge);
      if (url === '/v2/auth/totp/verify') {
        if (wrongOnce)
          return (
            (wrongOnce = false),
            json(401, {
              statusCode: 401,
              error: 'Unauthorized',
              message: 'x',
              code: 'INVALID_TOTP_CODE',
            })
          );
        return json(200, pair);
      }
      return json(200, user);
    });
    await renderWithApp(<LoginPage />, { lng: 'en' });
    await typeAndSubmit(
      { [en.login.email]: 'hana@example.com', [en.login.password]: 'secret-password' },
      'login-submit',
    );
    expect(await screen.findByText(en.totp.stepTitle)).toBeTruthy();
    expect(getAccessToken()).toBeNull();

    await typeAndSubmit({ [en.totp.code]: '000000' }, 'totp-submit');
    expect((await screen.findByTestId('totp-error')).textContent).toBe(
      en.totp.errors.INVALID_TOTP_CODE,
    );
    await typeAndSubmit({ [en.totp.code]: '123456' }, 'totp-submit');
    await waitFor(() => expect(getAccessToken()).toBe('access-1'));
    expect(calls.filter((c) => c.url === '/v2/auth/totp/verify').map((c) => c.body)).toEqual([
      { challenge: challenge.challenge, code: '000000' },
      { challenge: challenge.challenge, code: '123456' },
    ]);
  });

  it('shows the QR code to enrol when the organisation requires TOTP', async () => {
    stubServer((url) => {
      if (url === '/v2/auth/methods') return json(200, { methods: ['password'], oidc: null });
      if (url === '/v2/auth/signIn')
        return json(200, { ...challenge, code: 'TOTP_ENROLMENT_REQUIRED', factors: [] });
      if (url === '/v2/auth/totp/enrol')
        return json(200, {
          otpauthUri: 'otpauth://totp/x',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
          secret: 'JBSWY3DPEHPK3PXP',
        });
      return json(200, user);
    });
    await renderWithApp(<LoginPage />, { lng: 'en' });
    await typeAndSubmit(
      { [en.login.email]: 'hana@example.com', [en.login.password]: 'secret-password' },
      'login-submit',
    );
    expect(await screen.findByText(en.totp.enrolTitle)).toBeTruthy();
    expect((await screen.findByAltText(en.totp.qrAlt)).getAttribute('src')).toMatch(
      /^data:image\/svg/,
    );
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
  });

  it('shows the provider button only when the server names one', async () => {
    stubServer(() => json(200, { methods: ['password'], oidc: { displayName: 'Example ID' } }));
    await renderWithApp(<LoginPage />, { lng: 'en' });
    const link = await screen.findByRole('link', { name: 'Sign in with Example ID' });
    expect(link.getAttribute('href')).toBe('/v2/auth/oidc/start');
  });
});

describe('/login/oidc', () => {
  it('swaps the one-time code from the fragment for the tokens and clears the address bar', async () => {
    window.history.replaceState(null, '', '/login/oidc#code=one-time-code-0123456789');
    const calls = stubServer((url) =>
      url === '/v2/auth/oidc/exchange' ? json(200, pair) : json(200, user),
    );
    await renderWithApp(<OidcCallbackPage />, { lng: 'en', path: '/login/oidc' });
    await waitFor(() => expect(getAccessToken()).toBe('access-1'));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/v2/auth/oidc/exchange',
      body: { code: 'one-time-code-0123456789' },
    });
    expect(window.location.hash).toBe('');
  });

  it('explains a refusal without calling the server', async () => {
    window.history.replaceState(null, '', '/login/oidc#error=OIDC_ACCOUNT_NOT_FOUND');
    const calls = stubServer(() => json(500, {}));
    await renderWithApp(<OidcCallbackPage />, { lng: 'en', path: '/login/oidc' });
    expect(screen.getByRole('alert').textContent).toBe(en.oidc.errors.OIDC_ACCOUNT_NOT_FOUND);
    expect(calls).toEqual([]);
  });
});
