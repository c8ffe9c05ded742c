import type { TokenPair } from '@wearable/domain';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { session } from '../../../lib/session';
import { loadUserInfo } from '../../../lib/session-api';
import { storeTokens } from '../../../lib/storage';

/** Keeps the tokens, loads the user and opens the app; false when the user could not be loaded. */
export function useFinishSignIn(): (pair: TokenPair) => Promise<boolean> {
  const navigate = useNavigate();
  return async (pair) => {
    storeTokens(pair, Date.now());
    const user = await loadUserInfo();
    if (!user.ok) {
      session.end();
      return false;
    }
    session.reload();
    // The guard sends personal roles on to /user/record.
    await navigate(paths.devices.list.build(), { replace: true });
    return true;
  };
}
