import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { en, json, renderWithApp, stubServer } from '../../../testing/render';
import { TotpSettings } from './totp-settings';

const realFetch = globalThis.fetch;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
});
afterEach(() => {
  globalThis.fetch = realFetch;
  localStorage.clear();
});

const click = (testId: string) =>
  act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });

describe('two-step sign-in on /user/info', () => {
  it('turns on: QR code, then a code confirms it', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/auth/totp')
        return json(200, { enabled: false, requiredByOrganization: false });
      if (url === '/v2/auth/totp/setup')
        return json(200, {
          otpauthUri: 'otpauth://totp/x',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
          secret: 'JBSWY3DPEHPK3PXP',
        });
      return json(200, { enabled: true, requiredByOrganization: false });
    });
    await renderWithApp(<TotpSettings />, { lng: 'en' });
    expect((await screen.findByTestId('totp-state')).textContent).toBe(en.totp.off);
    await click('totp-turn-on');
    expect(screen.getByAltText(en.totp.qrAlt)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(en.totp.code), { target: { value: '123456' } });
    await click('totp-confirm');
    expect(screen.getByTestId('totp-state').textContent).toBe(en.totp.on);
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v2/auth/totp/enable',
      body: { code: '123456' },
    });
  });

  it('offers no way off while the organisation requires it', async () => {
    stubServer(() => json(200, { enabled: true, requiredByOrganization: true }));
    await renderWithApp(<TotpSettings />, { lng: 'en' });
    expect((await screen.findByTestId('totp-state')).textContent).toBe(
      `${en.totp.on} ${en.totp.required}`,
    );
    expect(screen.queryByTestId('totp-turn-off')).toBeNull();
  });
});
