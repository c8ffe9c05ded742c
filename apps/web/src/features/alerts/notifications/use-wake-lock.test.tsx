import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useWakeLock } from './use-wake-lock';

/** The Screen Wake Lock API as Chromium behaves: a lock is released when the tab is hidden. */
function fakeWakeLock() {
  const locks: { released: boolean; release: () => Promise<void> }[] = [];
  const request = vi.fn(() => {
    const lock = {
      released: false,
      release: () => {
        lock.released = true;
        return Promise.resolve();
      },
    };
    locks.push(lock);
    return Promise.resolve(lock);
  });
  Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true });
  return { locks, request };
}

let visibility: DocumentVisibilityState = 'visible';
vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  visibility = 'visible';
  Reflect.deleteProperty(navigator, 'wakeLock');
});

describe('useWakeLock (wall monitor)', () => {
  it('keeps the screen awake, asks again when the tab comes back, and lets go when turned off', async () => {
    const { locks, request } = fakeWakeLock();
    const { rerender } = renderHook(({ on }) => useWakeLock(on), { initialProps: { on: true } });
    await flush();
    expect(request).toHaveBeenCalledWith('screen');
    // The browser released it while hidden.
    visibility = 'hidden';
    await locks[0]!.release();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(request).toHaveBeenCalledTimes(1);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(request).toHaveBeenCalledTimes(2);
    rerender({ on: false });
    await flush();
    expect(locks[1]!.released).toBe(true);
  });

  it('asks for nothing when off, and does nothing without the API', async () => {
    const { request } = fakeWakeLock();
    renderHook(() => useWakeLock(false));
    await flush();
    expect(request).not.toHaveBeenCalled();
    Reflect.deleteProperty(navigator, 'wakeLock');
    expect(() => renderHook(() => useWakeLock(true))).not.toThrow();
  });
});
