import type { TokenPair } from '@wearable/domain';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { session } from '../../../lib/session';
import { takeReturnTo } from '../../../lib/return-to';
import { loadUserInfo } from '../../../lib/session-api';
import { storeTokens } from '../../../lib/storage';

/**
 * Keeps the tokens, loads the user and opens the app; false when the user could not be loaded.
 * `home`: where to go when no page was asked for (a new organisation's owner: the setup checklist).
 */
export function useFinishSignIn(): (pair: TokenPair, home?: string) => Promise<boolean> {
  const navigate = useNavigate();
  return async (pair, home) => {
    storeTokens(pair, Date.now());
    const user = await loadUserInfo();
    if (!user.ok) {
      session.end();
      return false;
    }
    session.reload();
    // The page asked for before sign-in, else home; the guard then applies the role's rules (a
    // personal role goes on to /user/record, a page the role may not open sends it home).
    const target = takeReturnTo() ?? home ?? paths.devices.list.build();
    await navigate(target, { replace: true });
    // The guard sends a signed-in person away from a signed-out page (/verify, /login) to the staff
    // home once the session above renders, which can land after this navigation and replace it.
    // Going once more after that render keeps the page asked for (a new owner's checklist).
    if (target !== paths.devices.list.build()) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await navigate(target, { replace: true });
    }
    return true;
  };
}
