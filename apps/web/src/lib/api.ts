import { createApiClient } from './api-client';
import { isDemoPath } from './demo';
import { session } from './session';

/** The one API client of the app: demo mode follows the page's path. */
export const api = createApiClient({
  isDemo: () => isDemoPath(window.location.pathname),
  onLogout: () => session.end(),
});
