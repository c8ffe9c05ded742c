import type { Person } from '@wearable/domain';
import { buildUserInfo } from '@wearable/domain/testing';
import { session } from '../../lib/session';

/** A wearer of org-1, as the wearer pages receive it. */
export const WEARER: Person = {
  uid: 'w1',
  kind: 'WEARER',
  role: null,
  name: '佐藤 健太',
  nameReading: null,
  clientId: 'org-1',
  groupId: null,
  groupName: null,
  birthDate: '1988-04-01',
  email: null,
  phoneNumber: null,
  linkedWearers: [],
};

/** The organisation's owner is signed in: they may edit the wearer and invite family members. */
export function signInAsOwner() {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(buildUserInfo({ role: 'ORGANIZATION_OWNER' })));
  session.reload();
}
