import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, ja, renderWithApp, stubServer } from '../../../testing/render';
import { AlertConfirmPage } from './alert-confirm-page';

const realFetch = globalThis.fetch;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
});
afterEach(() => {
  globalThis.fetch = realFetch;
  localStorage.clear();
  Reflect.deleteProperty(globalThis, 'caches');
});

/** Cache Storage as the service worker leaves it after 確認 in a notification (lib/confirm-intent.ts). */
function pressedInNotification(alertId: string, at = Date.now()) {
  const store = new Map<string, string>([
    [new URL(`/__confirm-intent/${alertId}`, location.origin).href, String(at)],
  ]);
  const cache = {
    match: (key: string) =>
      Promise.resolve(store.has(key) ? new Response(store.get(key)) : undefined),
    delete: (key: string) => Promise.resolve(store.delete(key)),
  };
  Object.defineProperty(globalThis, 'caches', {
    configurable: true,
    value: { open: () => Promise.resolve(cache) },
  });
  return store;
}

const page = (
  <Routes>
    <Route path="/alerts/:alertId/confirm" element={<AlertConfirmPage />} />
  </Routes>
);

describe("/alerts/:alertId/confirm, where a push's 確認 lands", () => {
  it('confirms the alert once with this session and says so, when 確認 was pressed in the notification', async () => {
    const intents = pressedInNotification('a-1');
    const calls = stubServer((url, init) =>
      url === '/v2/alert/confirm' && init?.method === 'POST'
        ? json(200, { alertId: 'a-1', result: 'confirmed' })
        : json(404, { code: 'NOT_FOUND' }),
    );
    await renderWithApp(page, { path: '/alerts/a-1/confirm' });
    expect((await screen.findByTestId('alert-confirm-done')).textContent).toBe(
      ja.push.confirm.confirmed,
    );
    const confirms = calls.filter((c) => c.url === '/v2/alert/confirm');
    expect(confirms).toHaveLength(1);
    expect(confirms[0]?.body).toEqual({ alertId: 'a-1' });
    // The intent is used up: opening the page again would ask.
    expect(intents.size).toBe(0);
  });

  it('opened from a link (no 確認 in a notification), it confirms nothing until its own button is pressed', async () => {
    const calls = stubServer(() => json(200, { alertId: 'a-3', result: 'confirmed' }));
    await renderWithApp(page, { path: '/alerts/a-3/confirm' });
    const button = await screen.findByTestId('alert-confirm-button');
    expect(calls.filter((c) => c.url === '/v2/alert/confirm')).toHaveLength(0);
    fireEvent.click(button);
    expect((await screen.findByTestId('alert-confirm-done')).textContent).toBe(
      ja.push.confirm.confirmed,
    );
    expect(calls.filter((c) => c.url === '/v2/alert/confirm')).toHaveLength(1);
  });

  it('a stale intent (older than ten minutes) is not a press', async () => {
    pressedInNotification('a-4', Date.now() - 11 * 60_000);
    const calls = stubServer(() => json(200, { alertId: 'a-4', result: 'confirmed' }));
    await renderWithApp(page, { path: '/alerts/a-4/confirm' });
    await screen.findByTestId('alert-confirm-button');
    expect(calls.filter((c) => c.url === '/v2/alert/confirm')).toHaveLength(0);
  });

  it('an alert someone else confirmed first says so', async () => {
    pressedInNotification('a-2');
    stubServer(() => json(200, { alertId: 'a-2', result: 'already_confirmed' }));
    await renderWithApp(page, { path: '/alerts/a-2/confirm' });
    expect((await screen.findByTestId('alert-confirm-done')).textContent).toBe(
      ja.push.confirm.alreadyConfirmed,
    );
  });
});
