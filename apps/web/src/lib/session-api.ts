import { bareGetUserInfo, type UserInfo } from '@wearable/domain';
import type { ApiResult } from './api-client';
import { callResult } from './call';
import { session } from './session';
import { getAccessToken } from './storage';

/**
 * The signed-in user, kept (state and localStorage) for the guard and the shell. An answer that
 * arrives after the session ended (its lifetime ran out, a logout here or in another tab) is the
 * ended session's: it stores nothing, or a signed-out browser would keep the user's details.
 */
export async function loadUserInfo(): Promise<ApiResult<UserInfo>> {
  const ends = session.ends;
  const result = await callResult(bareGetUserInfo);
  if (result.ok && session.ends === ends && getAccessToken() !== null) session.setUser(result.data);
  return result;
}
