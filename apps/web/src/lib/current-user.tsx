import type { UserInfo } from '@wearable/domain';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { session, type SessionState } from './session';

/** The demo's fake user; null outside the demo. */
const DemoUserContext = createContext<UserInfo | null>(null);
export const DemoUserProvider = DemoUserContext.Provider;

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** The person using the console now: the demo user inside /demo, else the signed-in user. */
export function useCurrentUser(): UserInfo | null {
  const demoUser = useContext(DemoUserContext);
  const { user } = useSession();
  return demoUser ?? user;
}
