import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { en, json, renderWithApp, stubServer } from '../../../testing/render';
import { PushSettings } from './push-settings';

const realFetch = globalThis.fetch;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
});
afterEach(() => {
  globalThis.fetch = realFetch;
  localStorage.clear();
});

const android = {
  id: 'ps-1',
  browser: 'Chrome',
  os: 'Android',
  createdAt: '2026-12-01T01:00:00.000Z',
  lastPushedAt: null,
  current: false,
};

describe('Web Push on /user/info', () => {
  it("lists this person's subscribed browsers by browser and system, each removable", async () => {
    let listed = [android];
    const calls = stubServer((url, init) => {
      if (url === '/v2/user/push/subscriptions/ps-1' && init?.method === 'DELETE') {
        listed = [];
        return new Response(null, { status: 204 });
      }
      return json(200, { subscriptions: listed });
    });
    await renderWithApp(<PushSettings />, { lng: 'en' });
    expect((await screen.findByTestId('push-item')).textContent).toContain('Chrome · Android');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove Chrome · Android' }));
    });
    expect(
      calls.some((c) => c.method === 'DELETE' && c.url === '/v2/user/push/subscriptions/ps-1'),
    ).toBe(true);
    expect((await screen.findByTestId('push-none')).textContent).toBe(en.push.none);
    expect(screen.getByTestId('push-status').textContent).toBe(en.push.removed);
  });

  it('says so where the browser has no Web Push (jsdom has none)', async () => {
    stubServer(() => json(200, { subscriptions: [] }));
    await renderWithApp(<PushSettings />, { lng: 'en' });
    expect((await screen.findByTestId('push-unsupported')).textContent).toBe(en.push.unsupported);
  });
});
