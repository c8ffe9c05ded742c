import { afterEach, describe, expect, it } from 'vitest';
import { rememberReturnTo, safeReturnPath, takeReturnTo } from './return-to';

afterEach(() => localStorage.clear());

describe('the page a signed-out visitor asked for', () => {
  it.each([
    ['/alert-histories', '/alert-histories'],
    [
      '/devices/c1/u1/alert?at=2026-12-01T03:44:00Z',
      '/devices/c1/u1/alert?at=2026-12-01T03:44:00Z',
    ],
    ['/groups/g1/devices#section', '/groups/g1/devices'],
  ])('follows %s as %s', (raw, path) => {
    expect(safeReturnPath(raw)).toBe(path);
  });

  it.each([
    '//evil.example/devices',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '\t//evil.example',
    '/\n/evil.example',
    '/login',
    '/verify#signin=abc',
    '/',
    'devices',
  ])('never follows %j (an open redirect, or a sign-in page)', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('keeps an encoded path on this origin', () => {
    expect(safeReturnPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('is taken once, and forgotten after half an hour', () => {
    rememberReturnTo('/alert-histories', 1_000);
    expect(takeReturnTo(2_000)).toBe('/alert-histories');
    expect(takeReturnTo(3_000)).toBeNull();
    rememberReturnTo('/alert-histories', 1_000);
    expect(takeReturnTo(1_000 + 31 * 60_000)).toBeNull();
  });

  it('refuses a value written into storage by hand that leaves the origin', () => {
    localStorage.setItem('returnTo', JSON.stringify({ path: '//evil.example', at: Date.now() }));
    expect(takeReturnTo()).toBeNull();
  });
});
