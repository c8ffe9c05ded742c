import type { UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const user = (role: UserInfo['role'], org: string | null = null): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: org,
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function open(who: UserInfo, lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(who));
  session.reload();
  window.history.replaceState(null, '', '/organization');
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path: '/organization', lng });
}

describe('/organization: create an organisation', () => {
  it.each(['ja', 'en'] as const)(
    'a platform owner creates one with its kind and owner; bad input is named (%s)',
    async (lng) => {
      const words = lng === 'ja' ? ja : en;
      const calls = stubServer((url, init) => {
        if (url === '/v2/user') return json(200, user('ALL_OWNER'));
        if (url === '/v2/client' && init?.method === 'POST')
          return json(201, {
            id: 'org-new',
            name: 'さくら苑',
            timeZone: 'Asia/Tokyo',
            kind: 'CARE_HOME',
            groups: [],
            invitedOwner: 'boss@example.com',
          });
        if (url === '/v2/client') return json(200, { clients: [] });
        if (url === '/v2/demo') return json(200, { present: false, signedInAsDemo: false });
        return json(200, {});
      });
      await open(user('ALL_OWNER'), lng);
      expect((await screen.findByTestId('page-empty', undefined, SLOW)).textContent).toBe(
        words.organizations.emptyCreate,
      );
      fireEvent.click(screen.getByTestId('create-organization'));
      await act(async () => fireEvent.click(screen.getByTestId('create-organization-submit')));
      expect(screen.getByText(words.organizations.create.errors.name)).toBeTruthy();
      expect(screen.getByText(words.organizations.create.errors.ownerEmail)).toBeTruthy();
      expect(calls.some((c) => c.method === 'POST')).toBe(false);

      fireEvent.change(screen.getByTestId('create-organization-name'), {
        target: { value: 'さくら苑' },
      });
      fireEvent.click(screen.getByTestId('create-organization-kind-CARE_HOME'));
      fireEvent.change(screen.getByTestId('create-organization-owner-email'), {
        target: { value: 'boss@example.com' },
      });
      fireEvent.change(screen.getByTestId('create-organization-owner-name'), {
        target: { value: '新井 太郎' },
      });
      await act(async () => fireEvent.click(screen.getByTestId('create-organization-submit')));
      await screen.findByTestId('create-organization-done', undefined, SLOW);
      expect(calls.find((c) => c.method === 'POST' && c.url === '/v2/client')?.body).toEqual({
        name: 'さくら苑',
        kind: 'CARE_HOME',
        timeZone: 'Asia/Tokyo',
        owner: { email: 'boss@example.com', name: '新井 太郎', locale: lng },
      });
      expect(screen.getByTestId('create-organization-setup').getAttribute('href')).toBe(
        '/setup?clientId=org-new',
      );
    },
  );

  it('an owner address with an account is named from the server’s answer', async () => {
    stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ALL_OWNER'));
      if (url === '/v2/client' && init?.method === 'POST')
        return json(409, {
          code: 'EMAIL_TAKEN',
          message: 'body.owner.email: this address already has an account',
          issues: [{ path: 'body.owner.email', message: 'this address already has an account' }],
        });
      if (url === '/v2/client') return json(200, { clients: [] });
      return json(200, { present: false, signedInAsDemo: false });
    });
    await open(user('ALL_OWNER'));
    fireEvent.click(await screen.findByTestId('create-organization', undefined, SLOW));
    fireEvent.change(screen.getByTestId('create-organization-name'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('create-organization-owner-email'), {
      target: { value: 'taken@example.com' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('create-organization-submit')));
    await waitFor(() =>
      expect(
        screen.getByTestId('create-organization-owner-email').getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(screen.getByTestId('form-failure').textContent).toBe(ja.admins.errors.EMAIL_TAKEN);
  });

  it('platform staff who are not owners see neither button', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ALL_GENERAL'));
      if (url === '/v2/client') return json(200, { clients: [] });
      return json(200, { present: true, signedInAsDemo: false });
    });
    await open(user('ALL_GENERAL'));
    await screen.findByTestId('page-empty', undefined, SLOW);
    expect(screen.queryByTestId('create-organization')).toBeNull();
    expect(screen.queryByTestId('remove-demo')).toBeNull();
  });
});

describe('/organization: remove the demo', () => {
  it('asks first, then removes it and says what went; a demo account then leaves', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ALL_OWNER'));
      if (url === '/v2/client') return json(200, { clients: [] });
      if (url === '/v2/demo' && init?.method === 'DELETE')
        return json(200, { organizations: 2, accounts: 9 });
      if (url === '/v2/demo') return json(200, { present: true, signedInAsDemo: true });
      return json(200, {});
    });
    await open(user('ALL_OWNER'));
    // The signed-in demo account has its ribbon on every page.
    expect((await screen.findByTestId('demo-account-ribbon', undefined, SLOW)).textContent).toBe(
      ja.shell.demoAccountRibbon,
    );
    fireEvent.click(await screen.findByTestId('remove-demo', undefined, SLOW));
    expect(screen.getByTestId('remove-demo-dialog').textContent).toContain(
      ja.organizations.demo.signsYouOut,
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await act(async () => fireEvent.click(screen.getByTestId('remove-demo-confirm')));
    expect((await screen.findByTestId('remove-demo-done', undefined, SLOW)).textContent).toBe(
      ja.organizations.demo.removed.replace('{{organizations}}', '2').replace('{{accounts}}', '9'),
    );
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/v2/demo']);
  });
});
