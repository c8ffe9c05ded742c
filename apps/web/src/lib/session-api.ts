import { bareGetUserInfo, type UserInfo } from '@wearable/domain';
import type { ApiResult } from './api-client';
import { callResult } from './call';
import { session } from './session';

/** The signed-in user, kept (state and localStorage) for the guard and the shell. */
export async function loadUserInfo(): Promise<ApiResult<UserInfo>> {
  const result = await callResult(bareGetUserInfo);
  if (result.ok) session.setUser(result.data);
  return result;
}
