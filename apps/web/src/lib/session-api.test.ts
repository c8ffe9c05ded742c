import type { UserInfo } from '@wearable/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from './session';
import { loadUserInfo } from './session-api';

const user: UserInfo = {
  name: 'スタッフ さん',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'staff@example.com',
  mailVerified: true,
  role: 'ORGANIZATION_OWNER',
  uid: 'uid-staff',
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
};

/** GET /v2/user answered when the test says so. */
function pendingUser() {
  let answer!: () => void;
  const asked = new Promise<void>((resolve) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => {
        resolve();
        return new Promise<Response>((r) => {
          answer = () =>
            r(
              new Response(JSON.stringify(user), {
                status: 200,
                headers: { 'Content-Type': 'application/json' },
              }),
            );
        });
      }),
    );
  });
  return { asked, answer: () => answer() };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  session.reload();
});
afterEach(() => {
  vi.unstubAllGlobals();
  session.end();
});

describe('loadUserInfo', () => {
  it('keeps the user of the session that asked', async () => {
    const server = pendingUser();
    const loading = loadUserInfo();
    await server.asked;
    server.answer();
    expect((await loading).ok).toBe(true);
    expect(session.get().user?.uid).toBe('uid-staff');
    expect(localStorage.getItem('userInfo')).not.toBeNull();
  });

  it('stores nothing when the session ended while the answer was on its way (its lifetime ran out)', async () => {
    const server = pendingUser();
    const loading = loadUserInfo();
    await server.asked;
    session.end();
    server.answer();
    await loading;
    expect(session.get().user).toBeNull();
    expect(Object.keys(localStorage)).toEqual([]);
  });
});
