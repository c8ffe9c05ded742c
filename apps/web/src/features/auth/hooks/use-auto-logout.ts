import { isPlatformRole, type Role } from '@wearable/domain';
import { useEffect } from 'react';
import { getSessionExpiry } from '../../../lib/storage';

const CHECK_EVERY_MS = 30_000;

/** True when the session has outlived its refresh token (login time + refreshExpiresIn). */
export function isSessionExpired(now: number, expiry: number | null): boolean {
  return expiry !== null && now >= expiry;
}

/** Platform staff are signed out when the session's lifetime has passed (checked on a timer and on focus). */
export function useAutoLogout(role: Role | null, logout: () => Promise<void>): void {
  useEffect(() => {
    if (role === null || !isPlatformRole(role)) return;
    const check = () => {
      if (isSessionExpired(Date.now(), getSessionExpiry())) void logout();
    };
    check();
    const timer = window.setInterval(check, CHECK_EVERY_MS);
    window.addEventListener('focus', check);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', check);
    };
  }, [role, logout]);
}
