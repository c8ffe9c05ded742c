import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { isDemoPath } from '../../../lib/demo';
import { session } from '../../../lib/session';
import { signOut } from '../api/auth-api';

/** Sign out, forget everything stored (the query cache follows session.end) and go to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    // The demo has no session on the server; leaving it is enough.
    if (!isDemoPath(window.location.pathname)) await signOut();
    session.end();
    await navigate(paths.login.build(), { replace: true });
  }, [navigate]);
}
