import type { GroupLiveState, UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const group = (id: string, name: string, counts: Partial<GroupLiveState> = {}): GroupLiveState => ({
  id,
  clientId: 'org-1',
  name,
  wearerCount: 0,
  notWornCount: 0,
  offlineCount: 0,
  openAlertCount: 0,
  gatewayCount: 0,
  ...counts,
});
const user = (role: UserInfo['role'], org: string | null = 'org-1'): UserInfo => ({
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

async function open(path: string, who: UserInfo, lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(who));
  session.reload();
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path, lng });
}

describe('/groups', () => {
  it.each(['ja', 'en'] as const)(
    'an organisation without groups says the next step and links it (%s)',
    async (lng) => {
      stubServer((url) => {
        if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
        if (url === '/v2/client/org-1/groups') return json(200, { groups: [] });
        if (url === '/v2/client/org-1/siteHeat') return json(200, { clientId: 'org-1', sites: [] });
        return json(200, {});
      });
      await open('/groups', user('ORGANIZATION_OWNER'), lng);
      const next = await screen.findByTestId('groups-empty-next', undefined, SLOW);
      expect(next.getAttribute('href')).toBe('/settings/groups');
      expect(next.textContent).toBe((lng === 'ja' ? ja : en).groups.emptyNextLink);
    },
  );

  it("shows each group's sites with their heat level, in ja and en", async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups')
        return json(200, { groups: [group('g1', '第一班'), group('g2', '第二班')] });
      if (url === '/v2/client/org-1/siteHeat')
        return json(200, {
          clientId: 'org-1',
          sites: [
            {
              gatewayId: 'gw1',
              gatewayName: '東ゲート',
              groupId: 'g1',
              groupName: '第一班',
              level: 'SEVERE',
              since: '2026-08-03T05:00:00Z',
              wbgt: 29.26,
              wbgtAt: '2026-08-03T05:10:00Z',
              heatRuleAppliesToday: false,
            },
          ],
        });
      return json(404, {});
    });
    for (const lng of ['ja', 'en'] as const) {
      const view = await open('/groups', user('ORGANIZATION_OWNER'), lng);
      const first = (await screen.findByText('第一班', undefined, SLOW)).closest('li')!;
      const site = await within(first).findByTestId('site-heat-site', undefined, SLOW);
      expect(site.textContent).toBe(
        lng === 'ja' ? '東ゲート厳重警戒WBGT 29.3' : '東ゲートSevereWBGT 29.3',
      );
      const second = screen.getByText('第二班').closest('li')!;
      expect(within(second).queryByTestId('site-heat-site')).toBeNull();
      view.unmount();
    }
  });

  it('shows each group of the organisation with its live state and links to its pages', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups')
        return json(200, {
          groups: [
            group('g 1', '第一班', {
              wearerCount: 12,
              notWornCount: 2,
              offlineCount: 3,
              openAlertCount: 1,
              gatewayCount: 4,
            }),
          ],
        });
      return json(404, {});
    });
    await open('/groups', user('ORGANIZATION_OWNER'));
    const card = (await screen.findByText('第一班', undefined, SLOW)).closest('li')!;
    const stat = (key: string) => within(card).getByTestId(`group-${key}`).textContent;
    expect([
      stat('wearers'),
      stat('notWorn'),
      stat('offline'),
      stat('openAlerts'),
      stat('gateways'),
    ]).toEqual(['12', '2', '3', '1', '4']);
    expect(within(card).getByText(ja.groups.stats.notWorn)).toBeTruthy();
    const devices = within(card).getByRole('link', {
      name: `${ja.groups.links.devices} （第一班）`,
    });
    expect(devices.getAttribute('href')).toBe('/groups/g%201/devices');
    expect(within(card).getByTestId('group-notice-link').getAttribute('href')).toBe(
      '/groups/g%201/alert-notice-settings',
    );
    expect(screen.getByTestId('groups-manage').getAttribute('href')).toBe('/settings/groups');
    expect(document.title).toContain(ja.pages.groups);
    expect(calls.filter((c) => c.url.includes('/groups')).map((c) => c.method)).toEqual(['GET']);
  });

  it('platform staff pick the organisation first; its groups are asked for by its id', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ALL_GENERAL', null));
      if (url === '/v2/client')
        return json(200, {
          clients: [
            {
              id: 'org-9',
              name: 'さくら介護',
              groupCount: 1,
              gatewayCount: 0,
              wearerCount: 0,
              openAlertCount: 0,
            },
          ],
        });
      if (url === '/v2/client/org-9/groups')
        return json(200, { groups: [group('g9', 'さくら一班')] });
      return json(404, {});
    });
    await open('/groups', user('ALL_GENERAL', null), 'en');
    const picker = await screen.findByTestId('groups-organization', undefined, SLOW);
    expect(calls.some((c) => c.url.endsWith('/groups'))).toBe(false);
    expect(screen.queryByTestId('groups-manage')).toBeNull();
    fireEvent.change(picker, { target: { value: 'org-9' } });
    expect(await screen.findByText('さくら一班', undefined, SLOW)).toBeTruthy();
    expect(
      screen.getByRole('link', { name: `${en.groups.links.devices} of さくら一班` }),
    ).toBeTruthy();
  });
});

describe('/settings/groups', () => {
  it('an owner creates, renames and is told why a group with wearers cannot be deleted', async () => {
    let groups = [group('g1', '第一班', { wearerCount: 3 })];
    const calls = stubServer((url, init) => {
      const method = init?.method ?? 'GET';
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups') return json(200, { groups });
      if (url === '/v2/group' && method === 'POST') {
        groups = [...groups, group('g2', '第二班')];
        return json(201, { id: 'g2', clientId: 'org-1', name: '第二班' });
      }
      if (url === '/v2/group/g1' && method === 'PATCH') {
        groups = [group('g1', '本館', { wearerCount: 3 }), ...groups.slice(1)];
        return json(200, { id: 'g1', clientId: 'org-1', name: '本館' });
      }
      if (url === '/v2/group/g1' && method === 'DELETE')
        return json(409, {
          statusCode: 409,
          error: 'Conflict',
          code: 'GROUP_NOT_EMPTY',
          message: 'Group g1 still has wearers; move them to another group first',
        });
      return json(404, {});
    });
    await open('/settings/groups', user('ORGANIZATION_OWNER'));
    expect(await screen.findByText('第一班', undefined, SLOW)).toBeTruthy();
    expect(document.title).toContain(ja.pages.settingsGroups);

    fireEvent.click(screen.getByTestId('group-create-submit'));
    expect(await screen.findByText(ja.groups.errors.required)).toBeTruthy();
    fireEvent.change(screen.getByTestId('group-create-name'), {
      target: { value: 'あ'.repeat(10_000) },
    });
    fireEvent.click(screen.getByTestId('group-create-submit'));
    expect(
      await screen.findByText(ja.groups.errors.tooLong.replace('{{max}}', '100')),
    ).toBeTruthy();
    expect(calls.some((c) => c.url === '/v2/group')).toBe(false);
    fireEvent.change(screen.getByTestId('group-create-name'), { target: { value: '  第二班 ' } });
    fireEvent.click(screen.getByTestId('group-create-submit'));
    expect(await screen.findByText('第二班', undefined, SLOW)).toBeTruthy();
    expect(calls.find((c) => c.url === '/v2/group')?.body).toEqual({
      clientId: 'org-1',
      name: '第二班',
    });

    fireEvent.click(screen.getByRole('button', { name: '第一班 の名前を変更' }));
    const rename = await screen.findByTestId('group-rename-dialog');
    fireEvent.change(within(rename).getByTestId('group-rename-name'), {
      target: { value: '本館' },
    });
    fireEvent.click(within(rename).getByTestId('group-rename-submit'));
    expect(await screen.findByText('本館', undefined, SLOW)).toBeTruthy();
    expect(calls.find((c) => c.url === '/v2/group/g1' && c.method === 'PATCH')?.body).toEqual({
      name: '本館',
    });

    fireEvent.click(screen.getByRole('button', { name: '本館 を削除' }));
    const remove = await screen.findByTestId('group-delete-dialog');
    fireEvent.click(within(remove).getByTestId('group-delete-confirm'));
    expect(await within(remove).findByText(ja.groups.errors.GROUP_NOT_EMPTY)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => [c.url, c.body])).toEqual([
      ['/v2/group/g1', undefined],
    ]);
    expect(screen.getAllByTestId('group-settings-row')).toHaveLength(2);
  });

  it('a refusal without a known code shows the server’s own message', async () => {
    stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups') return json(200, { groups: [group('g1', '第一班')] });
      if (url === '/v2/group/g1' && init?.method === 'DELETE')
        return json(409, {
          statusCode: 409,
          error: 'Conflict',
          code: 'OTHER',
          message: 'サーバーの理由',
        });
      return json(404, {});
    });
    await open('/settings/groups', user('ORGANIZATION_OWNER'));
    fireEvent.click(await screen.findByTestId('group-delete-open', undefined, SLOW));
    fireEvent.click(await screen.findByTestId('group-delete-confirm'));
    expect(await screen.findByText('サーバーの理由')).toBeTruthy();
  });

  it('general staff see the groups without create, rename or delete', async () => {
    const calls = stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_GENERAL'));
      if (url === '/v2/client/org-1/groups') return json(200, { groups: [group('g1', '第一班')] });
      return json(404, {});
    });
    await open('/settings/groups', user('ORGANIZATION_GENERAL'), 'en');
    expect(await screen.findByText('第一班', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText(en.groups.readOnly)).toBeTruthy();
    expect(screen.queryByTestId('group-create-name')).toBeNull();
    expect(screen.queryByTestId('group-rename-open')).toBeNull();
    await waitFor(() => expect(calls.every((c) => c.method === 'GET')).toBe(true));
  });
});
