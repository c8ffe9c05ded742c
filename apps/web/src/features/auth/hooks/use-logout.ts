import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { isDemoPath } from '../../../lib/demo';
import { forgetReturnTo } from '../../../lib/return-to';
import { session } from '../../../lib/session';
import { signOut } from '../api/auth-api';

/** Sign out, forget everything stored (the query cache follows session.end) and go to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    // The demo has no session on the server; leaving it is enough.
    if (!isDemoPath(window.location.pathname)) await signOut();
    // The page left behind is seen signed out on the way to /login: not a page to go back to.
    forgetReturnTo();
    session.end();
    await navigate(paths.login.build(), { replace: true });
  }, [navigate]);
}
