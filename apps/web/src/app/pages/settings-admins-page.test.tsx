import type { Member, MembersResponse, UserInfo } from '@wearable/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../lib/session';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../testing/render';
import { routes } from '../routes';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };

const user = (role: UserInfo['role'], organizationId: string | null): UserInfo => ({
  name: `${role} さん`,
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: organizationId,
});
const member = (uid: string, role: Member['role'], name = uid): Member => ({
  uid,
  name,
  mail: `${uid}@example.com`,
  role,
  groups: [],
});
const page = (members: Member[]): MembersResponse => ({
  members,
  total: members.length,
  page: 1,
  pageSize: 50,
  invitations: [],
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function openAs(info: UserInfo, lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(info));
  session.reload();
  window.history.replaceState(null, '', '/settings/admins');
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path: '/settings/admins', lng });
}

describe('/settings/admins', () => {
  it('platform staff pick the organisation first, and the list is asked for with its clientId', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ALL_OWNER', null));
      if (url === '/v2/client')
        return json(200, {
          clients: [
            { id: 'org-9', name: 'さくら介護', groupCount: 0, gatewayCount: 0, wearerCount: 0 },
          ],
        });
      if (url.startsWith('/v2/client/org-9'))
        return json(200, { id: 'org-9', name: 'さくら介護', timeZone: 'Asia/Tokyo', groups: [] });
      if (url.startsWith('/v2/user/organization/members'))
        return json(200, page([member('u1', 'ORGANIZATION_OWNER', '青木')]));
      return json(404, {});
    });
    await openAs(user('ALL_OWNER', null));
    const picker = await screen.findByTestId('admins-organization', undefined, SLOW);
    expect(calls.some((c) => c.url.startsWith('/v2/user/organization/members'))).toBe(false);
    fireEvent.change(picker, { target: { value: 'org-9' } });
    expect((await screen.findAllByTestId('member-row', undefined, SLOW))[0]?.textContent).toContain(
      '青木',
    );
    expect(calls.find((c) => c.url.startsWith('/v2/user/organization/members'))?.url).toContain(
      'clientId=org-9',
    );
    // Inviting into a customer organisation offers its roles only, never the platform's (issue 35).
    fireEvent.click(screen.getByTestId('invite-open'));
    const dialog = await screen.findByTestId('invite-dialog');
    expect(
      [...within(dialog).getByTestId('invite-role').querySelectorAll('option')].map((o) => o.value),
    ).toEqual(['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP']);
  });

  it('an owner invites: the form checks the contract first, then shows the server’s refusal', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER', 'org-1'));
      if (url.startsWith('/v2/client/org-1'))
        return json(200, {
          id: 'org-1',
          name: 'A',
          timeZone: 'Asia/Tokyo',
          groups: [{ id: 'g1', name: '第一班' }],
        });
      if (url.startsWith('/v2/user/organization/members'))
        return json(200, page([member('u1', 'ORGANIZATION_OWNER')]));
      if (url === '/v2/user/invite' && init?.method === 'POST') {
        return json(409, {
          statusCode: 409,
          error: 'Conflict',
          code: 'EMAIL_TAKEN',
          message: 'body.email: taken',
          issues: [{ path: 'body.email', message: 'taken' }],
        });
      }
      return json(404, {});
    });
    await openAs(user('ORGANIZATION_OWNER', 'org-1'), 'en');
    fireEvent.click(await screen.findByTestId('invite-open', undefined, SLOW));
    const dialog = await screen.findByTestId('invite-dialog');
    // Only the roles an organisation owner may grant.
    const roles = within(dialog).getByTestId('invite-role');
    expect([...roles.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
    ]);
    fireEvent.change(roles, { target: { value: 'ORGANIZATION_GROUP' } });
    fireEvent.change(within(dialog).getByTestId('invite-email'), {
      target: { value: 'new@example.com' },
    });
    await act(async () => fireEvent.click(within(dialog).getByTestId('invite-submit')));
    expect(within(dialog).getByText(en.admins.errors.groupIds)).toBeTruthy();
    expect(calls.some((c) => c.url === '/v2/user/invite')).toBe(false);

    fireEvent.click(within(dialog).getByLabelText('第一班'));
    await act(async () => fireEvent.click(within(dialog).getByTestId('invite-submit')));
    await waitFor(() =>
      expect(within(dialog).getByTestId('form-failure').textContent).toBe(
        en.admins.errors.EMAIL_TAKEN,
      ),
    );
    expect(calls.find((c) => c.url === '/v2/user/invite')?.body).toMatchObject({
      email: 'new@example.com',
      role: 'ORGANIZATION_GROUP',
      groupIds: ['g1'],
      clientId: 'org-1',
    });
  });

  it('general staff see the list without change buttons', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_GENERAL', 'org-1'));
      if (url.startsWith('/v2/client/org-1'))
        return json(200, { id: 'org-1', name: 'A', timeZone: 'Asia/Tokyo', groups: [] });
      if (url.startsWith('/v2/user/organization/members'))
        return json(200, page([member('u1', 'ORGANIZATION_OWNER')]));
      return json(404, {});
    });
    await openAs(user('ORGANIZATION_GENERAL', 'org-1'));
    await screen.findAllByTestId('member-row', undefined, SLOW);
    expect(screen.queryByTestId('invite-open')).toBeNull();
    expect(screen.queryByTestId('role-open')).toBeNull();
    expect(screen.getByTestId('page-heading').textContent).toBe(ja.pages.settingsAdmins);
  });
});
