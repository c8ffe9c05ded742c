import type { UserInfo } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DemoUserProvider } from '../../../lib/current-user';
import { json, stubServer } from '../../../testing/render';
import { alert, renderAlerts, signInAsRole } from '../alerts-test-utils';
import { AlertHistoriesPage } from './alert-histories-page';

const ALERTS = [
  alert('a1', {
    type: 'SOS_CALL',
    level: 'EMERGENCY',
    cause: { rule: 'sos-button', values: { event: 'SOS' }, windowStart: null, windowEnd: null },
  }),
  // Ended by recovery, nobody confirmed it yet: still confirmable.
  alert('a2', { status: 'CLOSED', closedAt: '2026-11-21T09:03:00.000Z', closeReason: 'recovered' }),
  alert('a3', {
    confirmedAt: '2026-11-21T09:05:00.000Z',
    confirmedBy: { uid: 'u1', name: '山田' },
    confirmReason: 'CHECKED_ON_SITE',
    confirmNote: '水分補給を指示',
  }),
];

const DEMO_USER: UserInfo = {
  name: 'デモ',
  role: 'ORGANIZATION_OWNER',
  uid: 'demo',
  devices: [],
  linkedUids: [],
  mail: 'demo@example.com',
  mailVerified: true,
  gatewayId: null,
  agreedTermsOfUse: true,
  mediromOrganizationId: null,
};

function server() {
  return stubServer((url, init) => {
    if (url.startsWith('/v2/alert/list') || url.startsWith('/demo-api/v2/alert/list'))
      return json(200, { alerts: ALERTS, total: 120, page: 1, pageSize: 50 });
    if (url === '/v2/alert/confirm') return json(200, { alertId: 'a1', result: 'confirmed' });
    if (url === '/v2/alert/batchConfirm') {
      const ids = (
        JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { alertIds: string[] }
      ).alertIds;
      return json(200, { results: ids.map((alertId) => ({ alertId, result: 'confirmed' })) });
    }
    return json(404, {});
  });
}

afterEach(() => {
  toast.dismiss();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('AlertHistoriesPage', () => {
  it('lists time, wearer, group, translated type, level badge, status and cause', async () => {
    server();
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    const rows = await screen.findAllByTestId('alert-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('SOS発信');
    expect(rows[0]!.textContent).toContain('第一現場');
    expect(within(rows[0]!).getByTestId('alert-badge').dataset.colour).toBe('red');
    expect(within(rows[1]!).getByTestId('alert-badge').dataset.colour).toBe('amber');
    expect(within(rows[1]!).getByTestId('alert-cause').textContent).toBe('心拍数 192 > 上限 180');
    expect(within(rows[1]!).getByTestId('alert-status').textContent).toBe('終了（未確認）');
    expect(within(rows[2]!).getByTestId('alert-status').textContent).toBe(
      '確認済み（山田）現場で確認水分補給を指示',
    );
    expect(within(rows[2]!).getByTestId('alert-confirm-reason').textContent).toBe('現場で確認');
    expect(within(rows[2]!).getByTestId('alert-confirm-note').textContent).toBe('水分補給を指示');
    expect(screen.getByTestId('pager-status').textContent).toBe('1 / 3 ページ（120件）');
  });

  it('opened from the banner (?unconfirmed) it lists the unconfirmed alerts first (issue 36)', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories?unconfirmed' });
    await screen.findAllByTestId('alert-row');
    const first = new URL(calls.find((c) => c.url.startsWith('/v2/alert/list?'))!.url, 'http://x');
    expect(first.searchParams.get('notConfirmed')).toBe('true');
    expect(screen.getByTestId<HTMLInputElement>('filter-not-confirmed').checked).toBe(true);
  });

  it('asks for a page once while nothing changes (the period is resolved when fetched, not in the cache key)', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    await screen.findAllByTestId('alert-row');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pages = calls.filter((c) => c.url.startsWith('/v2/alert/list?'));
    expect(pages).toHaveLength(1);
  });

  it('sends the filters as the query and starts again at page 1', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    await screen.findAllByTestId('alert-row');
    fireEvent.click(screen.getByTestId('pager-next'));
    await waitFor(() => expect(calls.some((c) => c.url.includes('page=2'))).toBe(true));
    fireEvent.click(screen.getByTestId('filter-not-confirmed'));
    fireEvent.change(screen.getByTestId('filter-type'), { target: { value: 'SOS_CALL' } });
    fireEvent.change(screen.getByTestId('filter-level'), { target: { value: 'EMERGENCY' } });
    fireEvent.change(screen.getByTestId('filter-period'), { target: { value: 'all' } });
    await waitFor(() => {
      const last = new URL(calls.at(-1)!.url, 'http://x');
      expect(Object.fromEntries(last.searchParams)).toEqual({
        notConfirmed: 'true',
        type: 'SOS_CALL',
        level: 'EMERGENCY',
        page: '1',
        pageSize: '50',
      });
    });
  });

  it('names a device no wearer holds where the wearer goes; confirming it offers register / assign (issue 34)', async () => {
    const unassigned = alert('u1', {
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      wearer: null,
      device: { serial: 'BR-DAIWA-001', gatewayId: 'gw-1', gatewayName: '詰所' },
      clientId: 'c1',
      cause: { rule: 'sos-button', values: { event: 'SOS' }, windowStart: null, windowEnd: null },
    });
    stubServer((url) => {
      if (url.startsWith('/v2/alert/list'))
        return json(200, { alerts: [unassigned], total: 1, page: 1, pageSize: 50 });
      if (url === '/v2/alert/confirm') return json(200, { alertId: 'u1', result: 'confirmed' });
      return json(404, {});
    });
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    const [row] = await screen.findAllByTestId('alert-row');
    expect(row!.textContent).toContain('未登録の端末 BR-DAIWA-001');
    expect(row!.textContent).toContain('未登録の端末からのSOS');
    fireEvent.click(within(row!).getByTestId('alert-confirm'));
    fireEvent.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-submit'),
    );
    const next = await screen.findByTestId('unassigned-device-dialog');
    expect(next.textContent).toContain('BR-DAIWA-001');
    expect(within(next).getByTestId('unassigned-register').getAttribute('href')).toBe(
      '/gateways/c1/gw-1',
    );
    expect(within(next).getByTestId('unassigned-assign').textContent).toBe('装着者に割り当てる');
  });

  it('confirms one alert with a reason and a note, then a closed and an open one together; one toast each', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_GENERAL');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    const rows = await screen.findAllByTestId('alert-row');
    // Open or ended, an unconfirmed alert can be confirmed; a confirmed one cannot again.
    expect(within(rows[1]!).getByTestId('alert-confirm')).toBeTruthy();
    expect(within(rows[2]!).queryByTestId('alert-confirm')).toBeNull();
    fireEvent.click(within(rows[0]!).getByTestId('alert-confirm'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('利用者 a1 のアラートを確認');
    fireEvent.change(within(dialog).getByLabelText('理由'), { target: { value: 'TREATED' } });
    fireEvent.change(within(dialog).getByLabelText('メモ'), {
      target: { value: '  救護室で冷却  ' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-submit'));
    await screen.findByText('アラートを確認済みにしました。');
    expect(calls.find((c) => c.url === '/v2/alert/confirm')?.body).toEqual({
      alertId: 'a1',
      reason: 'TREATED',
      note: '救護室で冷却',
    });
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1);
    // The dialog that held the focus is gone: the keyboard is on the confirmed row's status.
    await waitFor(() =>
      expect(document.activeElement).toBe(within(rows[0]!).getByTestId('alert-status')),
    );

    const batch = screen.getByTestId<HTMLButtonElement>('alert-batch-confirm');
    expect(batch.disabled).toBe(true);
    fireEvent.click(screen.getByTestId('alert-select-all'));
    expect(batch.textContent).toBe('選択した2件を確認');
    fireEvent.click(batch);
    fireEvent.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-submit'),
    );
    await screen.findByText('2件中2件を確認済みにしました。');
    // The batch button the dialog came from stays disabled: the keyboard returns to the page's heading.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('page-heading')));
    expect(calls.find((c) => c.url === '/v2/alert/batchConfirm')?.body).toEqual({
      alertIds: ['a1', 'a2'],
    });
    await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1));
  });

  it('cancelling the dialog sends nothing', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    fireEvent.click(
      within((await screen.findAllByTestId('alert-row'))[0]!).getByTestId('alert-confirm'),
    );
    fireEvent.click(within(await screen.findByTestId('confirm-dialog')).getByText('キャンセル'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(calls.some((c) => c.url.includes('onfirm'))).toBe(false);
  });

  it('shows no confirm controls in the demo (read-only) or to personal users', async () => {
    server();
    await renderAlerts(
      <DemoUserProvider value={DEMO_USER}>
        <AlertHistoriesPage />
      </DemoUserProvider>,
      { path: '/demo/alert-histories' },
    );
    await screen.findAllByTestId('alert-row');
    expect(screen.queryByTestId('alert-confirm')).toBeNull();
    expect(screen.queryByTestId('alert-batch-confirm')).toBeNull();
    expect(screen.getByTestId('alert-csv')).toBeTruthy();
  });

  it('downloads the CSV with the bearer token, the same filters and the current language', async () => {
    const calls = stubServer((url) => {
      if (url.startsWith('/v2/alert/listCsv'))
        return new Response('\uFEFFtime,wearer\r\n', {
          status: 200,
          headers: { 'Content-Disposition': 'attachment; filename="alerts-20261121.csv"' },
        });
      return json(200, { alerts: ALERTS, total: 3, page: 1, pageSize: 50 });
    });
    const csvHeaders: unknown[] = [];
    const stubbed = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith('/v2/alert/listCsv')) csvHeaders.push(init?.headers);
      return stubbed(input, init);
    };
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories', lng: 'en' });
    await screen.findAllByTestId('alert-row');
    fireEvent.click(screen.getByTestId('filter-not-confirmed'));
    fireEvent.click(screen.getByTestId('alert-csv'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csvCall = calls.find((c) => c.url.startsWith('/v2/alert/listCsv'))!;
    const query = Object.fromEntries(new URL(csvCall.url, 'http://x').searchParams);
    expect(query).toMatchObject({ notConfirmed: 'true', lng: 'en' });
    expect(query.from).toBeDefined();
    expect(csvHeaders).toEqual([{ Authorization: 'Bearer access-0' }]);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('alerts-20261121.csv');
  });
});
