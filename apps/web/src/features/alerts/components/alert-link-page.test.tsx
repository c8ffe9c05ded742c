import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en/alerts.json';
import ja from '../../../../public/locales/ja/alerts.json';
import { json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';
import { signInAsRole } from '../alerts-test-utils';
import { AlertLinkPage } from './alert-link-page';

beforeEach(() => signInAsRole('ORGANIZATION_GENERAL'));
afterEach(() => localStorage.clear());

// Issue 36 item 4: /a/:code goes on to the alert's page; a code the server refuses is "not found".
function open(code: string) {
  return renderWithApp(
    <RoutesUnderTest
      routes={[
        { path: '/a/:code', element: <AlertLinkPage /> },
        { path: '/devices/:clientId/:uid/alert_histories', element: <p>wearer alerts</p> },
        { path: '/alert-histories', element: <p>alert history</p> },
      ]}
    />,
    { path: `/a/${code}`, namespaces: [{ ns: 'alerts', ja, en }] },
  );
}

describe('AlertLinkPage', () => {
  it("goes on to the wearer's alerts the server names", async () => {
    const calls = stubServer((url) =>
      url === '/v2/alert/link/Ab3dE9x'
        ? json(200, { alertId: 'al-1', clientId: 'org-1', uid: 'w-1' })
        : json(404, {}),
    );
    await open('Ab3dE9x');
    expect(await screen.findByText('wearer alerts')).toBeTruthy();
    expect(calls.map((c) => c.url)).toContain('/v2/alert/link/Ab3dE9x');
  });

  it('a device no wearer holds: the alert history', async () => {
    stubServer(() => json(200, { alertId: 'al-2', clientId: 'org-1', uid: null }));
    await open('Zz9yX8w');
    expect(await screen.findByText('alert history')).toBeTruthy();
  });

  it('a 404 (unknown, or not this person’s to see) and a malformed code say not found', async () => {
    stubServer(() => json(404, { code: 'ALERT_NOT_FOUND', message: 'not found' }));
    await open('zzzzzzz');
    expect((await screen.findByTestId('alert-link-not-found')).textContent).toContain(
      ja.link.notFound,
    );
    await open('bad-code!');
    expect((await screen.findAllByTestId('alert-link-not-found')).length).toBeGreaterThan(0);
  });
});
