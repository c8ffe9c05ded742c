import type { UserInfo } from '@wearable/domain';
import { api } from './api';
import type { ApiResult } from './api-client';
import { session } from './session';

/** GET /v2/user and keep the answer (state and localStorage) for the guard and the shell. */
export async function loadUserInfo(): Promise<ApiResult<UserInfo>> {
  const result = await api.get<UserInfo>('/v2/user');
  if (result.ok) session.setUser(result.data);
  return result;
}
