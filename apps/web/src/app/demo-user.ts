import type { UserInfo } from '@wearable/domain';
import { api } from '../lib/api';

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

/** GET /demo-api/v2/user (the client adds the prefix under /demo), else the built-in user. */
export async function loadDemoUser(): Promise<UserInfo> {
  try {
    const result = await api.get<UserInfo>('/v2/user');
    if (result.ok && typeof result.data?.role === 'string' && typeof result.data.name === 'string')
      return result.data;
  } catch {
    // Fall through to the built-in user.
  }
  return FALLBACK_DEMO_USER;
}
