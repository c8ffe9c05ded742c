import type { GatewayListItem, UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/routes';
import { session } from '../../../lib/session';
import { en, ja, json, renderWithApp, RoutesUnderTest, stubServer } from '../../../testing/render';
import { connectionPayload } from './connection-dialog';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };
const gateway = (
  id: string,
  name: string,
  more: Partial<GatewayListItem> = {},
): GatewayListItem => ({
  id,
  clientId: 'org-1',
  name,
  type: 'STATIONARY',
  kind: 'native',
  serialNumber: `SN-${id}`,
  groupId: 'g1',
  groupName: '第一班',
  status: 'offline',
  lastSeenAt: null,
  offlineSince: null,
  braceletCount: 0,
  report: null,
  ...more,
});
const user = (role: UserInfo['role'], org: string | null = 'org-1'): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: org,
});
const connection = (credential: string) => ({
  serverUrl: 'https://console.example.com',
  gatewayId: 'gw-new',
  credential,
  mqttTopic: 'gateways/gw-new/batches',
  mqttResultsTopic: 'gateways/gw-new/results',
  mqttBroker: { host: 'console.example.com', port: 4110 },
  localOnlyLinks: false,
  kind: 'native' as const,
  pathSecret: null,
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function open(path: string, who: UserInfo, lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(who));
  session.reload();
  window.history.replaceState(null, '', path);
  return renderWithApp(<RoutesUnderTest routes={routes} />, { path, lng });
}

describe('/settings/gateways', () => {
  it('an owner registers (contract checked first), sees the credential once, renews it and deletes a gateway', async () => {
    let gateways = [gateway('gw-1', '詰所', { braceletCount: 3 })];
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const calls = stubServer((url, init) => {
      const method = init?.method ?? 'GET';
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups')
        return json(200, {
          groups: [
            {
              id: 'g1',
              clientId: 'org-1',
              name: '第一班',
              wearerCount: 0,
              notWornCount: 0,
              offlineCount: 0,
              openAlertCount: 0,
              gatewayCount: 1,
            },
          ],
        });
      if (url === '/v2/client/org-1/gateways') return json(200, { gateways });
      if (url === '/v2/gateway' && method === 'POST') {
        gateways = [...gateways, gateway('gw-new', '新ゲートウェイ')];
        return json(201, {
          gateway: gateway('gw-new', '新ゲートウェイ'),
          connection: connection('secret-one'),
        });
      }
      if (url === '/v2/gateway/gw-new/credential' && method === 'POST')
        return json(200, connection('secret-two'));
      if (url === '/v2/gateway/gw-1' && method === 'DELETE') {
        gateways = gateways.filter((g) => g.id !== 'gw-1');
        return json(200, { gatewayId: 'gw-1', unlinkedBracelets: 3 });
      }
      return json(404, {});
    });
    await open('/settings/gateways', user('ORGANIZATION_OWNER'));
    expect(await screen.findByText('詰所', { selector: 'p' }, SLOW)).toBeTruthy();
    expect(document.title).toContain(ja.pages.settingsGateways);

    fireEvent.click(screen.getByTestId('gateway-register-submit'));
    expect(await screen.findByText(ja.gateways.register.errors.serialNumber)).toBeTruthy();
    expect(screen.getByText(ja.gateways.register.errors.name)).toBeTruthy();
    fireEvent.change(screen.getByTestId('gateway-register-serialNumber'), {
      target: { value: 'has space' },
    });
    fireEvent.change(screen.getByTestId('gateway-register-name'), {
      target: { value: ' 新ゲートウェイ ' },
    });
    fireEvent.click(screen.getByTestId('gateway-register-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('gateway-register-serialNumber').getAttribute('aria-invalid')).toBe(
        'true',
      ),
    );
    expect(calls.some((c) => c.url === '/v2/gateway')).toBe(false);

    fireEvent.change(screen.getByTestId('gateway-register-type'), {
      target: { value: 'SMARTPHONE' },
    });
    fireEvent.change(await screen.findByTestId('gateway-register-group'), {
      target: { value: 'g1' },
    });
    fireEvent.change(screen.getByTestId('gateway-register-serialNumber'), {
      target: { value: 'GW-0042' },
    });
    fireEvent.click(screen.getByTestId('gateway-register-submit'));
    const dialog = await screen.findByTestId('connection-dialog', undefined, SLOW);
    expect(calls.find((c) => c.url === '/v2/gateway')?.body).toEqual({
      clientId: 'org-1',
      type: 'SMARTPHONE',
      kind: 'native',
      serialNumber: 'GW-0042',
      name: '新ゲートウェイ',
      groupId: 'g1',
    });
    expect(within(dialog).getByTestId<HTMLInputElement>('connection-credential').value).toBe(
      'secret-one',
    );
    expect(within(dialog).getByRole('img', { name: ja.gateways.connection.qrLabel })).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('connection-copy'));
    expect(await within(dialog).findByText(ja.gateways.connection.copied)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('secret-one');
    fireEvent.click(within(dialog).getByTestId('connection-done'));
    await waitFor(() => expect(screen.queryByTestId('connection-dialog')).toBeNull());
    expect(document.body.textContent).not.toContain('secret-one');

    fireEvent.click(
      await screen.findByRole('button', { name: '認証情報を再発行：新ゲートウェイ' }, SLOW),
    );
    fireEvent.click(await screen.findByTestId('gateway-rotate-confirm'));
    const renewed = await screen.findByTestId('connection-dialog', undefined, SLOW);
    expect(within(renewed).getByTestId<HTMLInputElement>('connection-credential').value).toBe(
      'secret-two',
    );
    fireEvent.click(within(renewed).getByTestId('connection-done'));

    fireEvent.click(await screen.findByRole('button', { name: '削除：詰所' }));
    const remove = await screen.findByTestId('gateway-delete-dialog');
    expect(within(remove).getByTestId('gateway-delete-bracelets').textContent).toContain('3');
    fireEvent.click(within(remove).getByTestId('gateway-delete-confirm'));
    await waitFor(() => expect(screen.queryByText('詰所', { selector: 'p' })).toBeNull(), SLOW);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/v2/gateway/gw-1',
    ]);
  });

  it('an owner renames a gateway and moves it to another group; an empty name is refused next to the field', async () => {
    let gateways = [gateway('gw-1', '詰所')];
    const groups = [
      {
        id: 'g1',
        clientId: 'org-1',
        name: '第一班',
        wearerCount: 0,
        notWornCount: 0,
        offlineCount: 0,
        openAlertCount: 0,
        gatewayCount: 1,
      },
      {
        id: 'g2',
        clientId: 'org-1',
        name: '第二班',
        wearerCount: 0,
        notWornCount: 0,
        offlineCount: 0,
        openAlertCount: 0,
        gatewayCount: 0,
      },
    ];
    const calls = stubServer((url, init) => {
      const method = init?.method ?? 'GET';
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups') return json(200, { groups });
      if (url === '/v2/client/org-1/gateways') return json(200, { gateways });
      if (url === '/v2/gateway/gw-1' && method === 'PATCH') {
        gateways = [gateway('gw-1', '東詰所', { groupId: 'g2', groupName: '第二班' })];
        return json(200, gateways[0]);
      }
      return json(404, {});
    });
    await open('/settings/gateways', user('ORGANIZATION_OWNER'));
    fireEvent.click(
      await screen.findByRole('button', { name: '名前・グループを変更：詰所' }, SLOW),
    );
    const dialog = await screen.findByTestId('gateway-edit-dialog');
    const name = within(dialog).getByTestId('gateway-edit-name');
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('gateway-edit-submit'));
    expect(await within(dialog).findByText('名前を入力してください（100文字まで）。')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.change(name, { target: { value: '東詰所' } });
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['グループなし', '第一班', '第二班']),
    );
    fireEvent.change(within(dialog).getByTestId('gateway-edit-group'), { target: { value: 'g2' } });
    fireEvent.click(within(dialog).getByTestId('gateway-edit-submit'));
    await screen.findByText('「東詰所」を保存しました。', undefined, SLOW);
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: '/v2/gateway/gw-1',
      body: { name: '東詰所', groupId: 'g2' },
    });
    await waitFor(() => expect(screen.queryByTestId('gateway-edit-dialog')).toBeNull());
  });

  it("a serial number already registered is explained in the reader's language", async () => {
    stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/gateways') return json(200, { gateways: [] });
      if (url === '/v2/client/org-1/groups') return json(200, { groups: [] });
      if (url === '/v2/gateway' && init?.method === 'POST')
        return json(409, {
          statusCode: 409,
          error: 'Conflict',
          code: 'GATEWAY_SERIAL_TAKEN',
          message: 'serialNumber: taken',
        });
      return json(404, {});
    });
    await open('/settings/gateways', user('ORGANIZATION_OWNER'), 'en');
    fireEvent.change(await screen.findByTestId('gateway-register-serialNumber', undefined, SLOW), {
      target: { value: 'GW-1' },
    });
    fireEvent.change(screen.getByTestId('gateway-register-name'), { target: { value: 'Gate' } });
    fireEvent.click(screen.getByTestId('gateway-register-submit'));
    expect(
      await screen.findByText(en.gateways.register.errors.GATEWAY_SERIAL_TAKEN, undefined, SLOW),
    ).toBeTruthy();
  });

  it('general staff see the gateways without register, renew or delete', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_GENERAL'));
      if (url === '/v2/client/org-1/gateways')
        return json(200, { gateways: [gateway('gw-1', '詰所')] });
      return json(404, {});
    });
    await open('/settings/gateways', user('ORGANIZATION_GENERAL'));
    expect(await screen.findByTestId('gateways-read-only', undefined, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('gateway-table', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('gateway-register-form')).toBeNull();
    expect(screen.queryByTestId('gateway-rotate-open')).toBeNull();
  });
});

describe('/gateways and its detail', () => {
  it('lists status (online, offline since, never) and bracelets, and the detail shows the environment and bracelets', async () => {
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/gateways')
        return json(200, {
          gateways: [
            gateway('gw-1', '詰所', {
              status: 'online',
              lastSeenAt: '2026-11-22T01:00:00.000Z',
              braceletCount: 12,
            }),
            gateway('gw-2', '倉庫', {
              lastSeenAt: '2026-11-22T00:00:00.000Z',
              offlineSince: '2026-11-22T00:05:00.000Z',
            }),
          ],
        });
      if (url === '/v2/gateway/gw-1')
        return json(200, {
          ...gateway('gw-1', '詰所', {
            status: 'online',
            lastSeenAt: '2026-11-22T01:00:00.000Z',
            braceletCount: 1,
          }),
          lastBatchAt: '2026-11-22T01:00:00.000Z',
          bracelets: [
            {
              wearableId: 'b1',
              serialNumber: 'BR-1',
              deviceName: 'Band',
              uid: 'w1',
              name: '山田',
              battery: 80,
              isPaired: false,
            },
          ],
          environment: {
            at: '2026-11-22T01:00:00.000Z',
            temperature: 31.25,
            humidity: 60,
            wbgt: 28.4,
          },
        });
      if (url.startsWith('/v2/gateway/gw-1/environment'))
        return json(200, { gatewayId: 'gw-1', points: [] });
      return json(404, {});
    });
    await open('/gateways', user('ORGANIZATION_OWNER'));
    const rows = await screen.findAllByTestId('gateway-row', undefined, SLOW);
    expect(
      rows.map((r) => within(r).getByTestId('gateway-status').getAttribute('data-status')),
    ).toEqual(['online', 'offline']);
    expect(within(rows[1]!).getByTestId('gateway-status').textContent).toContain(
      ja.gateways.status.offlineSince,
    );
    expect(within(rows[0]!).getByTestId('gateway-bracelets').textContent).toBe('12');
    const link = within(rows[0]!).getByRole('link', { name: '詰所' });
    expect(link.getAttribute('href')).toBe('/gateways/org-1/gw-1');

    fireEvent.click(link);
    expect(await screen.findByTestId('gateway-facts', undefined, SLOW)).toBeTruthy();
    expect(screen.getByTestId('gateway-environment-latest').textContent).toContain('31.3 °C');
    const bracelet = screen.getByTestId('gateway-bracelet-row');
    expect(within(bracelet).getByText(ja.gateways.bracelets.pending)).toBeTruthy();
    expect(within(bracelet).getByRole('link', { name: '山田' }).getAttribute('href')).toBe(
      '/devices/org-1/w1',
    );
    expect(await screen.findByText(ja.gateways.environment.empty)).toBeTruthy();
  });
});

it('the QR code holds what a gateway needs to connect', () => {
  expect(JSON.parse(connectionPayload(connection('s')))).toEqual({
    serverUrl: 'https://console.example.com',
    gatewayId: 'gw-new',
    credential: 's',
    mqttTopic: 'gateways/gw-new/batches',
    mqttResultsTopic: 'gateways/gw-new/results',
  });
});

it('says plainly when the server hands out a localhost address that no gateway can reach (issue 35)', async () => {
  stubServer((url, init) => {
    if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
    if (url === '/v2/client/org-1/groups') return json(200, { groups: [] });
    if (url === '/v2/client/org-1/gateways') return json(200, { gateways: [] });
    if (url === '/v2/gateway' && init?.method === 'POST')
      return json(201, {
        gateway: gateway('gw-new', 'Dock'),
        connection: {
          ...connection('cred-1'),
          serverUrl: 'http://localhost:4100',
          mqttBroker: { host: 'localhost', port: 4110 },
          localOnlyLinks: true,
        },
      });
    return json(404, {});
  });
  await open('/settings/gateways', user('ORGANIZATION_OWNER'));
  fireEvent.change(await screen.findByTestId('gateway-register-serialNumber', undefined, SLOW), {
    target: { value: 'GW-1' },
  });
  fireEvent.change(screen.getByTestId('gateway-register-name'), { target: { value: 'Dock' } });
  fireEvent.click(screen.getByTestId('gateway-register-submit'));
  const dialog = await screen.findByTestId('connection-dialog', undefined, SLOW);
  const warning = within(dialog).getByTestId('local-only-link-warning');
  expect(warning.textContent).toContain(
    ja.gateways.localOnlyLink.title.replace('{{host}}', 'localhost:4100'),
  );
  expect(warning.textContent).toContain('PUBLIC_URL');
});

describe('registering a gateway of a vendor kind (issue 18)', () => {
  it('shows what to enter on the device for its kind, each with a copy button, in English', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/groups') return json(200, { groups: [] });
      if (url === '/v2/client/org-1/gateways') return json(200, { gateways: [] });
      if (url === '/v2/gateway' && init?.method === 'POST')
        return json(201, {
          gateway: gateway('gw-new', 'Dock', { kind: 'aprilbrother' }),
          connection: { ...connection('cred-1'), kind: 'aprilbrother', pathSecret: 'path-1' },
        });
      return json(404, {});
    });
    await open('/settings/gateways', user('ORGANIZATION_OWNER'), 'en');
    fireEvent.change(await screen.findByTestId('gateway-register-kind', undefined, SLOW), {
      target: { value: 'aprilbrother' },
    });
    fireEvent.change(screen.getByTestId('gateway-register-serialNumber'), {
      target: { value: 'AB-1' },
    });
    fireEvent.change(screen.getByTestId('gateway-register-name'), { target: { value: 'Dock' } });
    fireEvent.click(screen.getByTestId('gateway-register-submit'));
    const dialog = await screen.findByTestId('connection-dialog', undefined, SLOW);
    expect(calls.find((c) => c.url === '/v2/gateway')?.body).toMatchObject({
      kind: 'aprilbrother',
    });
    const panel = within(dialog).getByTestId('gateway-instructions');
    expect(within(panel).getByTestId('instructions-httpUrl').textContent).toBe(
      'https://console.example.com/gateway/v1/aprilbrother/gw-new/path-1',
    );
    expect(within(panel).getByTestId('instructions-mqttTopic').textContent).toBe(
      'gateways/gw-new/aprilbrother',
    );
    // The broker the server really listens on, not a fixed 1883.
    expect(within(panel).getByTestId('instructions-mqttHost').textContent).toBe(
      'console.example.com',
    );
    expect(within(panel).getByTestId('instructions-mqttPort').textContent).toBe('4110');
    // PUBLIC_URL is a real address here: no warning.
    expect(within(dialog).queryByTestId('local-only-link-warning')).toBeNull();
    expect(within(panel).getByTestId('instructions-mqtt5').textContent).toBe(
      en.gateways.instructions.mqtt5,
    );
    // No QR code: the device is configured by hand from these lines.
    expect(within(dialog).queryByTestId('connection-qr')).toBeNull();
    fireEvent.click(
      within(panel).getByRole('button', {
        name: en.gateways.instructions.copyField.replace(
          '{{field}}',
          en.gateways.instructions.fields.mqttTopic,
        ),
      }),
    );
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('gateways/gw-new/aprilbrother'));
  });
});

describe('refused items on the gateway page (issue 34)', () => {
  it('lists them grouped with count and "did you mean", offers pairing, and the list marks the gateway', async () => {
    const now = new Date().toISOString();
    const refusing = gateway('gw-1', '詰所', {
      status: 'online',
      lastSeenAt: now,
      lastRefusalAt: now,
    });
    stubServer((url) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/gateways')
        return json(200, {
          gateways: [
            refusing,
            gateway('gw-2', '倉庫', { lastRefusalAt: '2026-01-01T00:00:00.000Z' }),
          ],
        });
      if (url === '/v2/gateway/gw-1')
        return json(200, { ...refusing, lastBatchAt: now, bracelets: [], environment: null });
      if (url.startsWith('/v2/gateway/gw-1/refusals'))
        return json(200, {
          gatewayId: 'gw-1',
          withinMinutes: 1440,
          refusals: [
            {
              reason: 'UNKNOWN_BRACELET',
              serialNumber: 'BR-DAIWA-001',
              list: 'readings',
              detail: 'unknown bracelet BR-DAIWA-001',
              count: 12,
              firstAt: now,
              lastAt: now,
              suggestion: 'BR-DAIWA-01',
            },
            {
              reason: 'NO_WEARER',
              serialNumber: 'BR-SPARE',
              list: 'readings',
              detail: 'bracelet BR-SPARE has no wearer',
              count: 1,
              firstAt: now,
              lastAt: now,
              suggestion: null,
            },
          ],
        });
      if (url.startsWith('/v2/gateway/gw-1/environment'))
        return json(200, { gatewayId: 'gw-1', points: [] });
      return json(404, {});
    });
    await open('/gateways', user('ORGANIZATION_OWNER'));
    const rows = await screen.findAllByTestId('gateway-row', undefined, SLOW);
    // Only while refusals continue (the last within 15 minutes).
    expect(within(rows[0]!).getByTestId('gateway-refusing-badge').textContent).toContain(
      ja.gateways.refusals.badge,
    );
    expect(within(rows[1]!).queryByTestId('gateway-refusing-badge')).toBeNull();
    fireEvent.click(within(rows[0]!).getByRole('link', { name: '詰所' }));
    const lines = await screen.findAllByTestId('gateway-refusal-line', undefined, SLOW);
    expect(lines[0]!.textContent).toContain(
      `12 × ${ja.gateways.refusals.reasons.UNKNOWN_BRACELET} BR-DAIWA-001`,
    );
    expect(screen.getByTestId('gateway-refusal-suggestion').textContent).toContain('BR-DAIWA-01');
    expect(screen.getByTestId('gateway-refusal-pair').getAttribute('href')).toBe('/devices');
  });
});
