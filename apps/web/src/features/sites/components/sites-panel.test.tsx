import type { SiteListResponse, UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import sitesEn from '../../../../public/locales/en/sites.json';
import sitesJa from '../../../../public/locales/ja/sites.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { SitesPanel } from './sites-panel';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };

const user = (role: UserInfo['role']): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
});

const LIST: SiteListResponse = {
  sites: [
    {
      id: 'site-1',
      clientId: 'org-1',
      name: '本館',
      groupId: null,
      groupName: null,
      plan: {
        format: 'png',
        width: 400,
        height: 200,
        bytes: 1234,
        sha256: 'abc',
        uploadedAt: '2026-11-26T01:00:00.000Z',
      },
      createdAt: '2026-11-26T00:00:00.000Z',
    },
  ],
  gateways: [
    {
      gatewayId: 'gw-1',
      name: '1階 食堂',
      groupId: null,
      plan: { siteId: 'site-1', x: 0.25, y: 0.5 },
      position: null,
    },
    { gatewayId: 'gw-2', name: '玄関', groupId: null, plan: null, position: null },
  ],
};

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
});

function serve(extra: (url: string, init?: RequestInit) => Response | undefined = () => undefined) {
  return stubServer((url, init) => {
    const answered = extra(url, init);
    if (answered) return answered;
    if (url === '/v2/organization/org-1/sites') return json(200, LIST);
    if (url === '/v2/client/org-1/groups') return json(200, { groups: [] });
    if (url === '/v2/site/site-1/plan')
      return new Response(new Blob(['png'], { type: 'image/png' }), { status: 200 });
    return json(404, { statusCode: 404, error: 'Not Found', message: 'nope', code: 'NOT_FOUND' });
  });
}

function open(role: UserInfo['role'], lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
  return renderWithApp(<SitesPanel organizationId="org-1" />, {
    lng,
    namespaces: [{ ns: 'sites', ja: sitesJa, en: sitesEn }],
  });
}

describe('/settings/sites', () => {
  it('an owner places a gateway on the plan by typing its position (the keyboard way)', async () => {
    const calls = serve((url, init) =>
      url === '/v2/gateway/gw-2/place' && init?.method === 'PUT'
        ? json(200, { ...LIST.gateways[1], plan: { siteId: 'site-1', x: 0.4, y: 0.6 } })
        : undefined,
    );
    await open('ORGANIZATION_OWNER', 'en');
    const detail = await screen.findByTestId('site-detail', undefined, SLOW);
    expect(within(detail).getByRole('heading', { name: '本館' })).toBeTruthy();
    // The placed gateway is a named marker on the plan.
    expect(
      screen.getByRole('button', { name: /^1階 食堂: 25 % from the left, 50 % from the top/ }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Place 玄関' }));
    const form = screen.getByRole('form', { name: 'Place of 玄関' });
    fireEvent.change(within(form).getByLabelText('Across (% from the left, 0–100)'), {
      target: { value: '40' },
    });
    fireEvent.change(within(form).getByLabelText('Down (% from the top, 0–100)'), {
      target: { value: '60' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save place' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        plan: { siteId: 'site-1', x: 0.4, y: 0.6 },
        position: null,
      }),
    );
  });

  it('refuses a half-given or out-of-range position before sending anything', async () => {
    const calls = serve();
    await open('ORGANIZATION_OWNER', 'ja');
    await screen.findByTestId('site-detail', undefined, SLOW);
    fireEvent.click(screen.getByRole('button', { name: '玄関を配置' }));
    const form = screen.getByRole('form', { name: '玄関の位置' });
    fireEvent.change(within(form).getByLabelText('緯度（−90〜90）'), { target: { value: '95' } });
    fireEvent.change(within(form).getByLabelText('経度（−180〜180）'), {
      target: { value: '139' },
    });
    fireEvent.click(within(form).getByRole('button', { name: '位置を保存' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(sitesJa.gateways.outOfRange);
    fireEvent.change(within(form).getByLabelText('緯度（−90〜90）'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: '位置を保存' }));
    expect(within(form).getByRole('alert').textContent).toBe(sitesJa.gateways.needBoth);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('an upload the server refuses as not an image says so', async () => {
    serve((url, init) =>
      url === '/v2/site/site-1/plan' && init?.method === 'PUT'
        ? json(400, {
            statusCode: 400,
            error: 'Bad Request',
            code: 'VALIDATION_FAILED',
            message: 'body: the plan is not a PNG, JPEG or WebP image',
          })
        : undefined,
    );
    await open('ORGANIZATION_OWNER', 'en');
    await screen.findByTestId('site-detail', undefined, SLOW);
    const input = screen.getByLabelText('Replace the plan (PNG, JPEG or WebP, up to 5 MB)');
    const file = new File(['not an image'], 'plan.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe(
      sitesEn.plan.notImage,
    );
  });

  it('general staff see the sites and places but no controls to change them', async () => {
    serve();
    await open('ORGANIZATION_GENERAL', 'ja');
    await screen.findByTestId('site-detail', undefined, SLOW);
    expect(screen.queryByRole('button', { name: '玄関を配置' })).toBeNull();
    expect(screen.queryByRole('button', { name: '拠点を削除: 本館' })).toBeNull();
    expect(screen.queryByTestId('new-site-name')).toBeNull();
    expect(screen.getByText('この平面図の 25%, 50%')).toBeTruthy();
  });
});
