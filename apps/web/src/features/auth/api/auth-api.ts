import type { SignInBody, SignInResult } from '@wearable/domain';
import { api } from '../../../lib/api';
import { getRefreshToken } from '../../../lib/storage';

export const signIn = (body: SignInBody) =>
  api.post<SignInResult>('/v2/auth/signIn', body, { auth: false });

/** Revokes the refresh token on the server; a failure must not keep anyone signed in. */
export async function signOut(): Promise<void> {
  const refreshToken = getRefreshToken();
  try {
    await api.post<unknown>('/v2/auth/signOut', refreshToken === null ? {} : { refreshToken });
  } catch {
    // No token left: nothing to revoke.
  }
}
