import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppLink, AppNavLink } from './app-path';
import { isDemoPath, stripDemoPrefix, toAppPath } from './demo';
import '../testing/render';

describe('demo paths', () => {
  it.each([
    ['/devices', false, '/devices'],
    ['/devices', true, '/demo/devices'],
    ['/', true, '/demo'],
    ['/demo/devices', true, '/demo/devices'],
    ['/settings/admins?tab=1', true, '/demo/settings/admins?tab=1'],
    ['https://example.com/x', true, 'https://example.com/x'],
  ])('toAppPath(%s, demo=%s) = %s', (path, demo, expected) => {
    expect(toAppPath(path, demo)).toBe(expected);
  });

  it('recognises only /demo and below as the demo', () => {
    expect([
      isDemoPath('/demo'),
      isDemoPath('/demo/devices'),
      isDemoPath('/demonstration'),
      isDemoPath('/devices'),
    ]).toEqual([true, true, false, false]);
    expect([
      stripDemoPrefix('/demo'),
      stripDemoPrefix('/demo/user/info'),
      stripDemoPrefix('/devices'),
    ]).toEqual(['/', '/user/info', '/devices']);
  });
});

describe('AppLink', () => {
  const links = (at: string) => {
    render(
      <MemoryRouter initialEntries={[at]}>
        <AppLink to="/alert-histories">history</AppLink>
        <AppNavLink to="/devices">devices</AppNavLink>
      </MemoryRouter>,
    );
    return [screen.getByText('history'), screen.getByText('devices')].map((a) =>
      a.getAttribute('href'),
    );
  };

  it('inside the demo prefixes every internal link with /demo', () => {
    expect(links('/demo/devices')).toEqual(['/demo/alert-histories', '/demo/devices']);
  });

  it('outside the demo leaves links as they are', () => {
    expect(links('/devices')).toEqual(['/alert-histories', '/devices']);
  });
});
