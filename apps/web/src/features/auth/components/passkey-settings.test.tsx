import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { en, json, renderWithApp, stubServer } from '../../../testing/render';
import { PasskeySettings } from './passkey-settings';

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

const passkey = {
  id: 'pk-1',
  name: 'Work laptop',
  createdAt: '2026-12-01T01:00:00.000Z',
  lastUsedAt: null,
};

describe('passkeys on /user/info', () => {
  it('lists each passkey by its name, with a labelled button that removes it', async () => {
    let listed = [passkey];
    const calls = stubServer((url, init) => {
      if (url === '/v2/auth/passkeys/pk-1' && init?.method === 'DELETE') {
        listed = [];
        return new Response(null, { status: 204 });
      }
      return json(200, {
        passkeys: listed,
        secondFactor: { required: false, enrolled: listed.length > 0, enrolBy: null },
      });
    });
    await renderWithApp(<PasskeySettings />, { lng: 'en' });
    expect((await screen.findByTestId('passkey-item')).textContent).toContain('Work laptop');
    const remove = screen.getByRole('button', { name: 'Remove passkey “Work laptop”' });
    await act(async () => {
      fireEvent.click(remove);
    });
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/v2/auth/passkeys/pk-1')).toBe(
      true,
    );
    expect((await screen.findByTestId('passkeys-none')).textContent).toBe(en.passkeys.none);
    expect(screen.getByTestId('passkeys-status').textContent).toBe(
      'Passkey “Work laptop” removed.',
    );
  });

  it('tells staff without a factor by when their organisation wants one', async () => {
    stubServer(() =>
      json(200, {
        passkeys: [],
        secondFactor: { required: true, enrolled: false, enrolBy: '2026-12-10T00:00:00.000Z' },
      }),
    );
    await renderWithApp(<PasskeySettings />, { lng: 'en' });
    expect((await screen.findByTestId('second-factor-reminder')).textContent).toContain(
      en.passkeys.enrolBy,
    );
  });
});
