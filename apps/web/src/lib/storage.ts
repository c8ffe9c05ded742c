import type { TokenPair, UserDevice, UserInfo } from '@wearable/domain';

/** Every localStorage key the console uses, in one place (logout clears them all). */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  /** Epoch ms of the sign-in; with refreshExpiresIn it bounds platform staff sessions. */
  loginTime: 'loginTime',
  refreshExpiresIn: 'refreshExpiresIn',
  userInfo: 'userInfo',
  selectedDevice: 'selectedDevice',
  language: 'i18nextLng',
  /** System / light / dark (lib/theme.ts); public/theme.js reads it before the first paint. Cleared at logout. */
  theme: 'theme',
  /** The address this browser last asked a sign-in link for: /verify sends it, so a link for another address is refused. */
  emailLinkAddress: 'emailLinkAddress',
  /** Pairings started here and not confirmed yet: [{ uid, name, attemptTimestamp }] (spec section 3). */
  pairingStatus: 'pairingStatus',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the session simply does not survive a reload.
  }
}

function readJson<T>(key: string, isValid: (value: unknown) => value is T): T | null {
  const raw = read(key);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isUserInfo = (value: unknown): value is UserInfo =>
  isObject(value) && typeof value.role === 'string' && typeof value.uid === 'string';

const isUserDevice = (value: unknown): value is UserDevice =>
  isObject(value) && typeof value.deviceId === 'string' && typeof value.uid === 'string';

export const getAccessToken = (): string | null => read(STORAGE_KEYS.accessToken);
export const getRefreshToken = (): string | null => read(STORAGE_KEYS.refreshToken);

/** Stores a freshly issued token pair; `loginTime` only on sign-in, not on refresh. */
export function storeTokens(pair: TokenPair, loginTime?: number): void {
  write(STORAGE_KEYS.accessToken, pair.accessToken);
  write(STORAGE_KEYS.refreshToken, pair.refreshToken);
  if (loginTime !== undefined) {
    write(STORAGE_KEYS.loginTime, String(loginTime));
    write(STORAGE_KEYS.refreshExpiresIn, String(pair.refreshExpiresIn));
  }
}

/** When the session's refresh token runs out (epoch ms), or null when unknown. */
export function getSessionExpiry(): number | null {
  const loginTime = Number(read(STORAGE_KEYS.loginTime));
  const lifetime = Number(read(STORAGE_KEYS.refreshExpiresIn));
  if (!Number.isFinite(loginTime) || loginTime <= 0 || !Number.isFinite(lifetime) || lifetime <= 0)
    return null;
  return loginTime + lifetime * 1000;
}

export const getStoredUser = (): UserInfo | null => readJson(STORAGE_KEYS.userInfo, isUserInfo);
export const storeUser = (user: UserInfo): void =>
  write(STORAGE_KEYS.userInfo, JSON.stringify(user));

export const getSelectedDevice = (): UserDevice | null =>
  readJson(STORAGE_KEYS.selectedDevice, isUserDevice);
export const storeSelectedDevice = (device: UserDevice): void =>
  write(STORAGE_KEYS.selectedDevice, JSON.stringify(device));

/**
 * Logout: the specification says local storage is cleared entirely, the theme choice with the rest (like the
 * language): the screen follows the system's again, at once (<html data-theme>, lib/theme.ts).
 */
export function clearStorage(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Nothing stored that we could reach.
  }
  document.documentElement.removeAttribute('data-theme');
}

export const getStoredLanguage = (): string | null => read(STORAGE_KEYS.language);
export const storeLanguage = (lng: string): void => write(STORAGE_KEYS.language, lng);

export const getStoredTheme = (): string | null => read(STORAGE_KEYS.theme);
export const storeTheme = (theme: string | null): void => write(STORAGE_KEYS.theme, theme);

export const getEmailLinkAddress = (): string | null => read(STORAGE_KEYS.emailLinkAddress);
export const storeEmailLinkAddress = (email: string | null): void =>
  write(STORAGE_KEYS.emailLinkAddress, email);

/** The raw pending-pairing list (features/bracelets checks its shape). */
export function getPairingStatus(): unknown {
  const raw = read(STORAGE_KEYS.pairingStatus);
  if (raw === null) return [];
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return [];
  }
}
export const storePairingStatus = (entries: readonly unknown[]): void =>
  write(STORAGE_KEYS.pairingStatus, entries.length === 0 ? null : JSON.stringify(entries));
