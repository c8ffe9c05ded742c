import type { UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getStoredUser } from '../../../lib/storage';
import { ja, json, renderWithApp, stubServer } from '../../../testing/render';
import { TermsModal } from './terms-modal';

const user: UserInfo = {
  name: '新人 花子',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'new@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_GENERAL',
  uid: 'u-new',
  agreedTermsOfUse: false,
  mediromOrganizationId: 'org-1',
};

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

describe('terms of use modal', () => {
  it('blocks: OK only when ticked, Escape does not close it', async () => {
    stubServer(() => json(200, {}));
    await renderWithApp(<TermsModal user={user} />);
    const modal = screen.getByTestId('terms-modal');
    expect(modal.getAttribute('role')).toBe('dialog');
    const ok = screen.getByTestId('terms-ok');
    const checkbox = screen.getByLabelText(ja.terms.consent);
    expect(ok).toHaveProperty('disabled', true);
    fireEvent.keyDown(modal, { key: 'Escape' });
    expect(screen.queryByTestId('terms-modal')).not.toBeNull();
    fireEvent.click(checkbox);
    expect(ok).toHaveProperty('disabled', false);
    fireEvent.click(checkbox);
    expect(ok).toHaveProperty('disabled', true);
  });

  it('on OK posts the agreement, reloads and stores the user, closes, toasts success', async () => {
    const calls = stubServer((url) =>
      url === '/v2/user'
        ? json(200, { ...user, agreedTermsOfUse: true })
        : json(200, { agreed: true }),
    );
    await renderWithApp(<TermsModal user={user} />);
    fireEvent.click(screen.getByTestId('terms-checkbox'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('terms-ok'));
    });
    const toast = await screen.findByText(ja.termsAgreementSuccess, undefined, { timeout: 10_000 });
    expect(toast.closest('[data-sonner-toast]')?.getAttribute('data-type')).toBe('success');
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/v2/user/termsOfUse', { agreement: true }],
      ['GET', '/v2/user', undefined],
    ]);
    expect(getStoredUser()?.agreedTermsOfUse).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('terms-modal')).toBeNull());
  });

  it('when the server refuses, toasts the failure and closes', async () => {
    const calls = stubServer(() =>
      json(500, { statusCode: 500, error: 'Internal', message: 'boom', code: 'INTERNAL' }),
    );
    await renderWithApp(<TermsModal user={user} />);
    fireEvent.click(screen.getByTestId('terms-checkbox'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('terms-ok'));
    });
    const toast = await screen.findByText(ja.termsAgreementFailed, undefined, { timeout: 10_000 });
    expect(toast.closest('[data-sonner-toast]')?.getAttribute('data-type')).toBe('error');
    expect(calls).toHaveLength(1);
    expect(getStoredUser()).toBeNull();
    await waitFor(() => expect(screen.queryByTestId('terms-modal')).toBeNull());
  });

  it('is not shown to a user who has agreed', async () => {
    stubServer(() => json(200, {}));
    await renderWithApp(<TermsModal user={{ ...user, agreedTermsOfUse: true }} />);
    expect(screen.queryByTestId('terms-modal')).toBeNull();
  });
});
