import type { SnoozeView } from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { alert, renderAlerts, signInAsRole } from '../alerts-test-utils';
import { AlertHistoriesPage } from './alert-histories-page';
import { HandoverPage } from './handover-page';

const SOS = alert('a1', {
  type: 'SOS_CALL',
  level: 'EMERGENCY',
  cause: { rule: 'sos-button', values: { event: 'SOS' }, windowStart: null, windowEnd: null },
});
const HEART = alert('a2');
const CONFIRMED = alert('a3', {
  confirmedAt: '2026-11-21T09:05:00.000Z',
  confirmedBy: { uid: 'u1', name: '山田' },
  confirmReason: 'CHECKED_ON_SITE',
  confirmNote: '水分補給を指示',
});
const SNOOZE: SnoozeView = {
  id: 's1',
  wearer: { uid: 'w-a2', name: '利用者 a2' },
  groupId: 'g1',
  groupName: '第一現場',
  clientId: 'c1',
  alertType: 'HEART_RATE',
  level: 'CAUTION',
  reason: '運動中のため',
  createdBy: { uid: 'u1', name: '山田' },
  createdAt: '2026-11-21T09:10:00.000Z',
  until: '2026-11-21T10:10:00.000Z',
  endedAt: null,
  endedBy: null,
  active: true,
};

function server(snoozeAnswer: () => Response = () => json(201, SNOOZE)) {
  return stubServer((url, init) => {
    if (url.startsWith('/v2/alert/list'))
      return json(200, { alerts: [SOS, HEART], total: 2, page: 1, pageSize: 50 });
    if (url.startsWith('/v2/alert/handover'))
      return json(200, {
        from: '2026-11-21T01:00:00.000Z',
        to: '2026-11-21T09:00:00.000Z',
        open: { alerts: [SOS, HEART], total: 2 },
        confirmed: { alerts: [CONFIRMED], total: 1 },
        snoozes: [SNOOZE],
      });
    if (url === '/v2/alert/snooze' && init?.method === 'POST') return snoozeAnswer();
    if (url === '/v2/alert/snooze/s1' && init?.method === 'DELETE')
      return json(200, {
        ...SNOOZE,
        active: false,
        endedAt: '2026-11-21T09:20:00.000Z',
        endedBy: { uid: 'u-staff', name: 'Staff' },
      });
    return json(404, {});
  });
}

afterEach(() => {
  toast.dismiss();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('snooze from the alert history', () => {
  it('is offered on a CAUTION alert and never on an EMERGENCY one; sends the type, wearer, minutes and reason', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_GENERAL');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    const rows = await screen.findAllByTestId('alert-row');
    expect(within(rows[0]!).queryByTestId('alert-snooze-open')).toBeNull();
    fireEvent.click(
      within(rows[1]!).getByRole('button', { name: '利用者 a2さんの心拍数異常を一時停止' }),
    );
    const dialog = await screen.findByTestId('snooze-dialog');
    // A reason is required before anything is sent.
    fireEvent.click(within(dialog).getByTestId('snooze-submit'));
    expect(within(dialog).getByRole('alert').textContent).toBe('理由を入力してください。');
    expect(calls.some((c) => c.url === '/v2/alert/snooze')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('停止する時間（最長12時間）'), {
      target: { value: '720' },
    });
    fireEvent.change(within(dialog).getByLabelText('理由（必須）'), {
      target: { value: ' 運動中のため ' },
    });
    fireEvent.click(within(dialog).getByTestId('snooze-submit'));
    await waitFor(() => expect(screen.queryByTestId('snooze-dialog')).toBeNull());
    expect(calls.find((c) => c.url === '/v2/alert/snooze')?.body).toEqual({
      uid: 'w-a2',
      alertType: 'HEART_RATE',
      minutes: 720,
      reason: '運動中のため',
    });
  });

  it("shows the server's message when it refuses", async () => {
    server(() =>
      json(409, {
        code: 'ALREADY_SNOOZED',
        message: 'This alert type is already snoozed for this wearer',
      }),
    );
    signInAsRole('ORGANIZATION_GENERAL');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    const rows = await screen.findAllByTestId('alert-row');
    fireEvent.click(within(rows[1]!).getByTestId('alert-snooze-open'));
    const dialog = await screen.findByTestId('snooze-dialog');
    fireEvent.change(within(dialog).getByTestId('snooze-reason'), { target: { value: '点検中' } });
    fireEvent.click(within(dialog).getByTestId('snooze-submit'));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This alert type is already snoozed for this wearer',
    );
  });

  it('is not offered to a wearer-reading role without alert:snooze', async () => {
    server();
    signInAsRole('ORGANIZATION_VIEWER');
    await renderAlerts(<AlertHistoriesPage />, { path: '/alert-histories' });
    await screen.findAllByTestId('alert-row');
    expect(screen.queryByTestId('alert-snooze-open')).toBeNull();
  });
});

describe('HandoverPage', () => {
  it('shows open alerts, snoozes with who and why, confirmations; changes the window; ends a snooze', async () => {
    const calls = server();
    signInAsRole('ORGANIZATION_GENERAL');
    await renderAlerts(<HandoverPage />, { path: '/alert-histories/handover' });
    const open = await screen.findByTestId('handover-open');
    const openRows = within(open).getAllByTestId('alert-row');
    expect(openRows).toHaveLength(2);
    // The open heart-rate alert's type is snoozed for its wearer: said under its status; the SOS is not.
    expect(within(openRows[1]!).getByTestId('alert-snoozed').textContent).toMatch(
      /^通知停止中。期限：/,
    );
    expect(within(openRows[0]!).queryByTestId('alert-snoozed')).toBeNull();
    const snooze = screen.getByTestId('handover-snooze');
    expect(snooze.textContent).toContain('運動中のため');
    expect(snooze.textContent).toContain('山田');
    expect(within(snooze).getByTestId('handover-snooze-state').textContent).toBe('停止中');
    const confirmed = screen.getByTestId('handover-confirmed');
    expect(confirmed.textContent).toContain('現場で確認');
    expect(confirmed.textContent).toContain('水分補給を指示');
    expect(calls.at(-1)!.url).toBe('/v2/alert/handover?hours=8');

    fireEvent.change(screen.getByLabelText('対象期間'), { target: { value: '24' } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/v2/alert/handover?hours=24')).toBe(true),
    );

    fireEvent.click(
      within(snooze).getByRole('button', { name: '利用者 a2さんの心拍数異常の一時停止を終了' }),
    );
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/v2/alert/snooze/s1' && c.method === 'DELETE')).toBe(
        true,
      ),
    );
  });

  it('offers no end button to those who may not snooze', async () => {
    server();
    signInAsRole('ORGANIZATION_VIEWER');
    await renderAlerts(<HandoverPage />, { path: '/alert-histories/handover' });
    await screen.findByTestId('handover-snooze');
    expect(screen.queryByTestId('handover-snooze-end')).toBeNull();
    expect(screen.queryByTestId('alert-snooze-open')).toBeNull();
  });
});
