import { bareSignIn, bareSignOut, type SignInBody } from '@wearable/domain';
import { callResult } from '../../../lib/call';
import { getRefreshToken } from '../../../lib/storage';

export const signIn = (body: SignInBody) => callResult(bareSignIn, { body });

/** Revokes the refresh token on the server; a failure must not keep anyone signed in. */
export async function signOut(): Promise<void> {
  const refreshToken = getRefreshToken();
  try {
    await callResult(bareSignOut, { body: refreshToken === null ? {} : { refreshToken } });
  } catch {
    // No token left: nothing to revoke.
  }
}
