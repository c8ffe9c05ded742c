import { screen } from '@testing-library/react';
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
});

const page = (
  <Routes>
    <Route path="/alerts/:alertId/confirm" element={<AlertConfirmPage />} />
  </Routes>
);

describe("/alerts/:alertId/confirm, where a push's 確認 lands", () => {
  it('confirms the alert once with this session and says so', async () => {
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
  });

  it('an alert someone else confirmed first says so', async () => {
    stubServer(() => json(200, { alertId: 'a-2', result: 'already_confirmed' }));
    await renderWithApp(page, { path: '/alerts/a-2/confirm' });
    expect((await screen.findByTestId('alert-confirm-done')).textContent).toBe(
      ja.push.confirm.alreadyConfirmed,
    );
  });
});
