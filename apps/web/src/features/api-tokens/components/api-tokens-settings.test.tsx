import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@wearable/domain';
import { session } from '../../../lib/session';
import { en, json, renderWithApp, stubServer } from '../../../testing/render';
import { ApiTokensSettings } from './api-tokens-settings';

const realFetch = globalThis.fetch;
const user = (role: UserInfo['role']): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: role.startsWith('PERSONAL') ? null : 'org-1',
});
const signIn = (role: UserInfo['role']) => {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
};
const token = {
  id: 't1',
  name: 'nightly export',
  scopes: ['alert:read'],
  createdAt: '2026-11-01T00:00:00.000Z',
  expiresAt: '2027-02-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
};
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  localStorage.clear();
});

describe('API tokens on /user/info', () => {
  it('lists tokens, makes one with the chosen scopes and shows it once', async () => {
    signIn('ORGANIZATION_OWNER');
    const calls = stubServer((url, init) => {
      if (init?.method === 'POST')
        return json(201, { ...token, id: 't2', name: 'warehouse', token: 'wct_secret-once' });
      return json(200, { tokens: [token], grantableScopes: ['alert:read', 'alert:confirm'] });
    });
    await renderWithApp(<ApiTokensSettings />, { lng: 'en' });
    const list = await screen.findByRole('list', { name: en.apiTokens.listLabel });
    expect(within(list).getByText('nightly export')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(en.apiTokens.name), { target: { value: 'warehouse' } });
    fireEvent.click(screen.getByLabelText(/Confirm alerts/));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: en.apiTokens.create }));
    });
    expect((await screen.findByTestId('api-token-value')).textContent).toBe('wct_secret-once');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/v2/user/apiTokens',
      body: { name: 'warehouse', expiresInDays: 90, scopes: ['alert:read', 'alert:confirm'] },
    });
    fireEvent.click(screen.getByRole('button', { name: en.apiTokens.saved }));
    expect(screen.queryByTestId('api-token-value')).toBeNull();
  });

  it('names what is wrong before sending, and revokes after asking', async () => {
    signIn('ORGANIZATION_GENERAL');
    const calls = stubServer(() => json(200, { tokens: [token], grantableScopes: ['alert:read'] }));
    await renderWithApp(<ApiTokensSettings />, { lng: 'en' });
    await screen.findByText('nightly export');
    fireEvent.click(screen.getByRole('button', { name: en.apiTokens.create }));
    expect(screen.getByRole('alert').textContent).toBe(en.apiTokens.errors.name);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Revoke the token “nightly export”' }));
    });
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/v2/user/apiTokens/t1');
  });

  it('is not shown to personal users', async () => {
    signIn('PERSONAL');
    stubServer(() => json(200, { tokens: [], grantableScopes: [] }));
    const view = await renderWithApp(<ApiTokensSettings />, { lng: 'en' });
    expect(view.container.textContent).toBe('');
  });
});
