import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../public/locales/en/wearer.json';
import ja from '../../../../public/locales/ja/wearer.json';
import { session } from '../../../lib/session';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { readPendingPairings } from '../pending-pairings';
import { PairingModal, type PairingModalData } from './pairing-modal';

const DATA: PairingModalData = {
  clientId: 'c1',
  uid: 'w1',
  deviceName: '',
  gatewayId: '',
  serialNumber: '',
  gatewayType: null,
  groupName: '第一現場',
  name: '佐藤 健太',
  colorCode: '#0f766e',
  isError: false,
};
const GATEWAY = {
  id: 'gw1',
  clientId: 'c1',
  name: '詰所',
  type: 'SMARTPHONE',
  serialNumber: 'GW-1',
  groupId: 'g1',
  groupName: '第一現場',
  status: 'online',
  lastSeenAt: null,
  offlineSince: null,
  braceletCount: 0,
};

const SECOND_GATEWAY = { ...GATEWAY, id: 'gw2', name: '食堂', serialNumber: 'GW-2' };

function server(link: { status: number; body: unknown }, gateways: unknown[] = [GATEWAY]) {
  return stubServer((url, init) => {
    if (url === '/v2/client/c1/gateways') return json(200, { gateways });
    if (url === '/v2/user/device/link/gateway' && init?.method === 'POST')
      return json(link.status, link.body);
    return json(404, {});
  });
}

const open = (data: PairingModalData, onClose = vi.fn()) =>
  renderWithApp(<PairingModal data={data} onClose={onClose} />, {
    namespaces: [{ ns: 'wearer', ja, en }],
  });

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  session.reload();
});

// The machine is shared: generous waits, no timing asserted.
const slow = { timeout: 5_000 };

describe('the pairing modal', { timeout: 20_000 }, () => {
  it('sends the link, stores {uid, name, attemptTimestamp} and closes', async () => {
    const calls = server({ status: 200, body: { isPaired: false, device: {} } });
    const onClose = vi.fn();
    await open(DATA, onClose);
    expect(await screen.findByText('佐藤 健太', {}, slow)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('シリアル番号'), { target: { value: ' BR-9 ' } });
    await screen.findByRole('option', { name: /詰所/ }, slow);
    fireEvent.change(screen.getByLabelText('ゲートウェイ'), { target: { value: 'gw1' } });
    expect(screen.getByTestId('pairing-gateway-type').textContent).toContain('スマートフォン');
    const before = Date.now();
    fireEvent.click(screen.getByTestId('pairing-start'));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      clientId: 'c1',
      uid: 'w1',
      gatewayId: 'gw1',
      serialNumber: 'BR-9',
    });
    const [entry] = readPendingPairings();
    expect(entry).toMatchObject({ uid: 'w1', name: '佐藤 健太' });
    expect(entry?.attemptTimestamp).toBeGreaterThanOrEqual(before);
  });

  it('an unknown serial is explained, nothing is stored, the modal stays open in its error state', async () => {
    server({
      status: 404,
      body: { code: 'BRACELET_NOT_FOUND', message: 'Bracelet BR-X not found' },
    });
    const onClose = vi.fn();
    await open({ ...DATA, serialNumber: 'BR-X', gatewayId: 'gw1' }, onClose);
    fireEvent.click(await screen.findByTestId('pairing-start', {}, slow));
    expect((await screen.findByTestId('pairing-error', {}, slow)).textContent).toBe(
      'このシリアル番号のブレスレットは、この組織に登録されていません。',
    );
    expect(readPendingPairings()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('pairing-start').closest('form')?.dataset.error).toBe('true');
  });

  it('an organisation with one gateway has it chosen; with two, nothing is chosen for the user', async () => {
    server({ status: 200, body: { isPaired: false, device: {} } });
    const view = await open(DATA);
    await waitFor(
      () => expect(screen.getByLabelText<HTMLSelectElement>('ゲートウェイ').value).toBe('gw1'),
      slow,
    );
    expect(screen.getByTestId('pairing-gateway-type').textContent).toContain('スマートフォン');
    view.unmount();

    server({ status: 200, body: { isPaired: false, device: {} } }, [GATEWAY, SECOND_GATEWAY]);
    await open(DATA);
    await screen.findByRole('option', { name: /食堂/ }, slow);
    expect(screen.getByLabelText<HTMLSelectElement>('ゲートウェイ').value).toBe('');
  });

  it('opened with isError, it says the last attempt failed; nothing is sent before the serial and gateway are given', async () => {
    const calls = server({ status: 200, body: { isPaired: true, device: {} } }, [
      GATEWAY,
      SECOND_GATEWAY,
    ]);
    await open({ ...DATA, isError: true });
    expect((await screen.findByTestId('pairing-error', {}, slow)).textContent).toContain(
      '前回のペアリング',
    );
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('pairing-start').focus();
    fireEvent.click(screen.getByTestId('pairing-start'));
    expect(await screen.findAllByTestId('field-error', {}, slow)).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    // The first field to fix has the keyboard, once the render that marks it invalid is committed.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('シリアル番号')));

    // The serial given, the gateway is what is left to fix: focus moves there.
    fireEvent.change(screen.getByLabelText('シリアル番号'), { target: { value: 'BR-9' } });
    screen.getByTestId('pairing-start').focus();
    fireEvent.click(screen.getByTestId('pairing-start'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('ゲートウェイ')));
    expect(screen.getByLabelText('シリアル番号').getAttribute('aria-invalid')).toBe('false');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('an unknown serial offers an owner to register it, then pairs it', async () => {
    localStorage.setItem(
      'userInfo',
      JSON.stringify({
        name: 'オーナー',
        devices: [],
        gatewayId: null,
        linkedUids: [],
        mail: 'o@example.com',
        mailVerified: true,
        role: 'ORGANIZATION_OWNER',
        uid: 'owner-1',
        agreedTermsOfUse: true,
        mediromOrganizationId: 'c1',
      }),
    );
    session.reload();
    let registered = false;
    const calls = stubServer((url, init) => {
      if (url === '/v2/client/c1/gateways') return json(200, { gateways: [GATEWAY] });
      if (url === '/v2/device' && init?.method === 'POST') {
        registered = true;
        return json(201, {
          wearableId: 'b1',
          clientId: 'c1',
          serialNumber: 'BR-NEW',
          deviceName: 'BR-NEW',
          model: null,
          firmware: null,
          uid: null,
          gatewayId: null,
        });
      }
      if (url === '/v2/user/device/link/gateway' && init?.method === 'POST')
        return registered
          ? json(200, { isPaired: false, device: {} })
          : json(404, { code: 'BRACELET_NOT_FOUND', message: 'Bracelet BR-NEW not found' });
      return json(404, {});
    });
    const onClose = vi.fn();
    await open({ ...DATA, serialNumber: 'BR-NEW', gatewayId: 'gw1' }, onClose);
    fireEvent.click(await screen.findByTestId('pairing-start', {}, slow));
    expect((await screen.findByTestId('pairing-register-offer', {}, slow)).textContent).toContain(
      'BR-NEW',
    );
    fireEvent.click(screen.getByTestId('pairing-register'));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([
      ['/v2/user/device/link/gateway', expect.objectContaining({ serialNumber: 'BR-NEW' })],
      ['/v2/device', { mediromOrganizationId: 'c1', serialNumber: 'BR-NEW' }],
      ['/v2/user/device/link/gateway', expect.objectContaining({ serialNumber: 'BR-NEW' })],
    ]);
    expect(readPendingPairings()).toMatchObject([{ uid: 'w1' }]);
  });

  it('someone who may not register bracelets is told to ask an owner', async () => {
    server({ status: 404, body: { code: 'BRACELET_NOT_FOUND', message: 'not found' } });
    await open({ ...DATA, serialNumber: 'BR-X', gatewayId: 'gw1' });
    fireEvent.click(await screen.findByTestId('pairing-start', {}, slow));
    expect((await screen.findByTestId('pairing-register-ask', {}, slow)).textContent).toBe(
      ja.register.askOwner,
    );
    expect(screen.queryByTestId('pairing-register')).toBeNull();
  });
});
