import { bareGetUserInfo, type UserInfo } from '@wearable/domain';
import { callResult } from '../lib/call';

/** Used when /demo-api cannot be reached, so the demo always opens. */
export const FALLBACK_DEMO_USER: UserInfo = {
  name: 'デモ 管理者',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'demo@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_OWNER',
  uid: 'demo-owner',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'demo-organization',
};

/** The demo's user (the API client reads /demo-api under /demo), else the built-in user. */
export async function loadDemoUser(): Promise<UserInfo> {
  try {
    const result = await callResult(bareGetUserInfo);
    if (result.ok && typeof result.data?.role === 'string' && typeof result.data.name === 'string')
      return result.data;
  } catch {
    // Fall through to the built-in user.
  }
  return FALLBACK_DEMO_USER;
}
