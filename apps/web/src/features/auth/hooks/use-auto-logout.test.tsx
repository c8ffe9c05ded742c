import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isSessionExpired, useAutoLogout } from './use-auto-logout';

const HOUR = 3_600_000;

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

/** A session that started `startedAgo` ms ago with a one-hour refresh token. */
function storeSession(startedAgo: number) {
  localStorage.setItem('loginTime', String(Date.now() - startedAgo));
  localStorage.setItem('refreshExpiresIn', '3600');
}

describe('automatic logout of platform staff', () => {
  it('expires when login time + refresh lifetime has passed', () => {
    expect(isSessionExpired(1000, 1000)).toBe(true);
    expect(isSessionExpired(999, 1000)).toBe(false);
    expect(isSessionExpired(1000, null)).toBe(false);
  });

  it('logs ALL_GENERAL and ALL_OWNER out once the session is over, on the timer and on focus', () => {
    vi.useFakeTimers();
    for (const role of ['ALL_GENERAL', 'ALL_OWNER'] as const) {
      storeSession(HOUR - 60_000);
      const logout = vi.fn(async () => undefined);
      const { unmount } = renderHook(() => useAutoLogout(role, logout));
      expect(logout).not.toHaveBeenCalled();
      vi.advanceTimersByTime(61_000);
      expect(logout).toHaveBeenCalled();
      logout.mockClear();
      window.dispatchEvent(new Event('focus'));
      expect(logout).toHaveBeenCalledOnce();
      unmount();
    }
  });

  it('never logs out organisation or personal roles this way', () => {
    storeSession(10 * HOUR);
    for (const role of [
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
      'PERSONAL',
      'PERSONAL_SELF',
    ] as const) {
      const logout = vi.fn(async () => undefined);
      const { unmount } = renderHook(() => useAutoLogout(role, logout));
      window.dispatchEvent(new Event('focus'));
      expect(logout).not.toHaveBeenCalled();
      unmount();
    }
  });
});
