import type { ChatChannelList, UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import commonJa from '../../../../public/locales/ja/common.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { ChatChannelsPanel } from './chat-channels-panel';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const LIST = '/v2/organization/org-1/chatChannels';

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
const slack: ChatChannelList['channels'][number] = {
  channel: 'SLACK',
  settings: { channelId: 'C123ABC456' },
  secrets: { botToken: '…bqgy', signingSecret: '…85a5' },
  confirms: true,
  callbackUrl: 'https://console.example/v2/chat/slack/org-1',
  updatedAt: '2026-12-03T06:00:00.000Z',
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
});

function open(role: UserInfo['role']) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
  return renderWithApp(<ChatChannelsPanel organizationId="org-1" />, { lng: 'ja' });
}

describe('the chat channels section', () => {
  it('shows each service, a stored secret only by its last characters, and staff only read', async () => {
    stubServer((url) => (url === LIST ? json(200, { channels: [slack] }) : json(404, {})));
    await open('ORGANIZATION_GENERAL');
    const card = await screen.findByTestId('chat-channel-SLACK', undefined, SLOW);
    expect(within(card).getByTestId('chat-channel-state').textContent).toBe(
      commonJa.chatChannels.stateConfirms,
    );
    expect(
      within(screen.getByTestId('chat-channel-TEAMS')).getByTestId('chat-channel-state')
        .textContent,
    ).toBe(commonJa.chatChannels.stateNone);
    expect(within(card).queryByTestId('chat-save')).toBeNull();
  });

  it('an owner saves: only the fields filled in are sent (a secret left empty keeps its value)', async () => {
    const calls = stubServer((url, init) => {
      if (url === LIST) return json(200, { channels: [slack] });
      if (url === `${LIST}/SLACK` && init?.method === 'PUT') return json(200, slack);
      return json(404, {});
    });
    await open('ORGANIZATION_OWNER');
    const card = await screen.findByTestId('chat-channel-SLACK', undefined, SLOW);
    expect(within(card).getByText('保存済み（…bqgy）。空欄のままなら変わりません。')).toBeTruthy();
    fireEvent.change(within(card).getByTestId('chat-field-channelId'), {
      target: { value: 'C999' },
    });
    fireEvent.click(within(card).getByTestId('chat-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), SLOW);
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      channel: 'SLACK',
      channelId: 'C999',
    });
    expect(await within(card).findByTestId('chat-status', undefined, SLOW)).toBeTruthy();
  });
});
