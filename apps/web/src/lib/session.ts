import type { UserDevice, UserInfo } from '@wearable/domain';
import {
  clearStorage,
  getAccessToken,
  getSelectedDevice,
  getStoredUser,
  storeSelectedDevice,
  storeUser,
} from './storage';

/** What the route guard and the shell need to know about the signed-in person. */
export interface SessionState {
  hasToken: boolean;
  user: UserInfo | null;
  selectedDevice: UserDevice | null;
}

type Listener = () => void;

function readState(): SessionState {
  return {
    hasToken: getAccessToken() !== null,
    user: getStoredUser(),
    selectedDevice: getSelectedDevice(),
  };
}

/**
 * A tiny external store over localStorage, so the API client (outside React) can end
 * the session and every component reading it re-renders (useSyncExternalStore).
 */
function createSessionStore() {
  let state = readState();
  let ends = 0;
  const listeners = new Set<Listener>();
  const endListeners = new Set<Listener>();
  const emit = () => listeners.forEach((listener) => listener());
  // Another tab signed in or out: follow it, so a logout there ends this tab's session too.
  window.addEventListener('storage', (event) => {
    if (event.storageArea !== window.localStorage) return;
    state = readState();
    emit();
  });

  return {
    get: (): SessionState => state,
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Re-read after tokens or user info were written to storage. */
    reload(): void {
      state = readState();
      emit();
    },
    setUser(user: UserInfo): void {
      storeUser(user);
      state = { ...state, user };
      emit();
    },
    selectDevice(device: UserDevice): void {
      storeSelectedDevice(device);
      state = { ...state, selectedDevice: device };
      emit();
    },
    /** How many times a session has ended here: work started before an end belongs to no session. */
    get ends(): number {
      return ends;
    },
    /** Logged out (by the user, a failed refresh or a missing token): forget everything. */
    end(): void {
      ends++;
      clearStorage();
      state = { hasToken: false, user: null, selectedDevice: null };
      endListeners.forEach((listener) => listener());
      emit();
    },
    /** Called when the session ends, e.g. to clear the query cache. */
    onEnd(listener: Listener): () => void {
      endListeners.add(listener);
      return () => endListeners.delete(listener);
    },
  };
}

export const session = createSessionStore();
