import type { UserInfo, WearerListItem } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import { ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const wearer: WearerListItem = {
  uid: 'w1',
  name: '青木 花子',
  nameReading: null,
  clientId: 'org-1',
  groupId: 'g-1',
  groupName: '第一班',
  wearableId: null,
  deviceName: null,
  serialNumber: null,
  gatewayId: null,
  battery: null,
};
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
  mediromOrganizationId: 'org-1',
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function open(path: string, role: UserInfo['role']) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path });
}

describe('/members', () => {
  it('lists wearers with their family, checks the form as the server does and shows the server refusal', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url.startsWith('/v2/user/device/list')) return json(200, { devices: [wearer] });
      if (url.startsWith('/v2/user/lookup/associatedWithWearables'))
        return json(200, {
          users: [
            {
              uid: 'f1',
              name: '青木 家族',
              email: null,
              phoneNumber: null,
              wearers: [{ uid: 'w1', name: '青木 花子' }],
            },
          ],
        });
      if (url.startsWith('/v2/client/org-1'))
        return json(200, { groups: [{ id: 'g-1', name: '第一班' }] });
      if (url === '/v2/user/wearer' && init?.method === 'POST')
        return json(403, {
          statusCode: 403,
          error: 'Forbidden',
          code: 'SOMETHING',
          message: 'サーバーの理由',
        });
      return json(404, {});
    });
    await open('/members', 'ORGANIZATION_OWNER');
    const row = await screen.findByText('青木 花子', undefined, SLOW);
    expect(within(row.closest('tr')!).getByText('青木 家族')).toBeTruthy();
    fireEvent.click(screen.getByTestId('wearer-add'));
    const dialog = await screen.findByTestId('wearer-dialog');
    fireEvent.click(within(dialog).getByTestId('wearer-submit'));
    expect(await within(dialog).findByText(ja.people.errors.name)).toBeTruthy();
    expect(calls.some((c) => c.url === '/v2/user/wearer')).toBe(false);
    fireEvent.change(within(dialog).getByTestId('wearer-name'), { target: { value: '新規 太郎' } });
    fireEvent.change(within(dialog).getByTestId('wearer-birth-date'), {
      target: { value: '1970-01-02' },
    });
    fireEvent.click(within(dialog).getByTestId('wearer-submit'));
    expect(await within(dialog).findByText('サーバーの理由')).toBeTruthy();
    expect(calls.find((c) => c.url === '/v2/user/wearer')?.body).toEqual({
      clientId: 'org-1',
      name: '新規 太郎',
      birthDate: '1970-01-02',
      groupId: 'g-1',
    });
  });
});

describe('/members?add=1 (装着者を追加 on /devices and in the menu)', () => {
  it('opens the form at once, sends the reading, and names link to the wearer with their reading', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url.startsWith('/v2/user/device/list'))
        return json(200, { devices: [{ ...wearer, nameReading: 'あおき はなこ' }] });
      if (url.startsWith('/v2/user/lookup/associatedWithWearables'))
        return json(200, { users: [] });
      if (url.startsWith('/v2/client/org-1'))
        return json(200, { groups: [{ id: 'g-1', name: '第一班' }] });
      if (url === '/v2/user/wearer' && init?.method === 'POST') return json(201, { uid: 'w2' });
      return json(404, {});
    });
    await open('/members?add=1', 'ORGANIZATION_OWNER');
    const dialog = await screen.findByTestId('wearer-dialog', undefined, SLOW);
    // The groups arrive after the form opened: the first becomes the default.
    await within(dialog).findByRole('option', { name: '第一班' }, SLOW);
    fireEvent.change(within(dialog).getByTestId('wearer-name'), { target: { value: '一 二三' } });
    fireEvent.change(within(dialog).getByTestId('wearer-name-reading'), {
      target: { value: 'にのまえ ふみ' },
    });
    fireEvent.change(within(dialog).getByTestId('wearer-birth-date'), {
      target: { value: '1970-01-02' },
    });
    fireEvent.click(within(dialog).getByTestId('wearer-submit'));
    await waitFor(() => expect(screen.queryByTestId('wearer-dialog')).toBeNull(), SLOW);
    expect(calls.find((c) => c.url === '/v2/user/wearer')?.body).toEqual({
      clientId: 'org-1',
      name: '一 二三',
      nameReading: 'にのまえ ふみ',
      birthDate: '1970-01-02',
      groupId: 'g-1',
    });
    const link = await screen.findByTestId('people-name', undefined, SLOW);
    expect(link.getAttribute('href')).toBe('/devices/org-1/w1');
    expect(link.closest('td')?.textContent).toContain('あおき はなこ');
  });
});

describe('/settings', () => {
  it('shows the audit log to an owner, with its filters sent to the server', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url.startsWith('/v2/audit'))
        return json(200, {
          entries: [
            {
              id: '1',
              at: '2026-11-22T10:00:00.000Z',
              clientId: 'org-1',
              actorId: 'u',
              actorName: '山田',
              kind: 'wearer.update',
              targetId: 'w1',
              before: { name: 'a' },
              after: { name: 'b' },
            },
          ],
          total: 1,
          page: 1,
        });
      return json(404, {});
    });
    await open('/settings', 'ORGANIZATION_OWNER');
    expect(
      await screen.findByText(ja.audit.kinds['wearer.update'], { selector: 'td' }, SLOW),
    ).toBeTruthy();
    fireEvent.change(screen.getByTestId('audit-kind'), { target: { value: 'family.link' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('kind=family.link'))).toBe(true));
  });

  it('general staff are not offered the log', async () => {
    stubServer((url) =>
      url === '/v2/user' ? json(200, user('ORGANIZATION_GENERAL')) : json(404, {}),
    );
    await open('/settings', 'ORGANIZATION_GENERAL');
    expect(await screen.findByText(ja.audit.noAccess, undefined, SLOW)).toBeTruthy();
  });
});
