import type { DeviceSetting } from '@wearable/domain';
import { buildUserInfo } from '@wearable/domain/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en/wearer.json';
import ja from '../../../../public/locales/ja/wearer.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { DeviceSettingPanel } from './device-setting-panel';

const DEVICE: DeviceSetting = {
  uid: 'w1',
  wearableId: 'wb1',
  serialNumber: 'BR-1',
  deviceName: '健太のブレスレット',
  heartRateDutyCycle: 5,
  appliedDutyCycle: 5,
  configStatus: 'applied',
  battery: 80,
  firmware: '1.2.0',
  gatewayId: 'gw1',
  gatewayName: '詰所',
  gatewayType: 'STATIONARY',
  isPaired: true,
};

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(buildUserInfo({ role: 'ORGANIZATION_OWNER' })));
  session.reload();
});

describe("the bracelet's setting form", () => {
  it('a name emptied: nothing is sent and the keyboard lands on the name, marked invalid', async () => {
    const calls = stubServer((url) =>
      url === '/v2/user/w1/device/setting' ? json(200, DEVICE) : json(404, {}),
    );
    await renderWithApp(
      <DeviceSettingPanel
        wearer={{ uid: 'w1', clientId: 'org-1', name: '佐藤 健太', groupName: null }}
      />,
      { namespaces: [{ ns: 'wearer', ja, en }] },
    );
    const name = await screen.findByTestId('setting-device-name', undefined, { timeout: 5_000 });
    fireEvent.change(name, { target: { value: ' ' } });
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('save-device-setting').focus();
    fireEvent.click(screen.getByTestId('save-device-setting'));
    // Marked by the render the submit causes; focus follows that render.
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});
