import type { UserInfo } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { personalWearerOf } from './personal-wearer';

const user = (role: UserInfo['role'], patch: Partial<UserInfo> = {}): UserInfo => ({
  name: '清水 花子',
  role,
  uid: 'u1',
  devices: [],
  linkedUids: [],
  mail: null,
  mailVerified: true,
  gatewayId: null,
  agreedTermsOfUse: true,
  mediromOrganizationId: null,
  ...patch,
});
const device = {
  deviceId: 'd1',
  deviceName: 'BR-1',
  uid: 'w1',
  usingWearableId: 'd1',
  name: '佐藤 健太',
};

describe('personalWearerOf', () => {
  it('PERSONAL: the selected device, or nobody until one is chosen', () => {
    expect(personalWearerOf(user('PERSONAL', { devices: [device] }), device)).toEqual({
      uid: 'w1',
      name: '佐藤 健太',
    });
    expect(personalWearerOf(user('PERSONAL', { devices: [device] }), null)).toBeNull();
  });

  it('PERSONAL_SELF: linkedUids first, then devices, then their own uid; never the selected device', () => {
    expect(
      personalWearerOf(user('PERSONAL_SELF', { linkedUids: ['w20'], devices: [device] }), device),
    ).toEqual({ uid: 'w20', name: '清水 花子' });
    expect(personalWearerOf(user('PERSONAL_SELF', { devices: [device] }), null)?.uid).toBe('w1');
    expect(personalWearerOf(user('PERSONAL_SELF'), null)?.uid).toBe('u1');
  });

  it('staff and signed-out readers have no personal wearer', () => {
    expect(personalWearerOf(user('ORGANIZATION_OWNER'), device)).toBeNull();
    expect(personalWearerOf(null, device)).toBeNull();
  });
});
