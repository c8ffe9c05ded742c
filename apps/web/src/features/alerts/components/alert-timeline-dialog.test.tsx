import type { AlertTimelineResponse } from '@wearable/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { alert, renderAlerts, signInAsRole } from '../alerts-test-utils';
import { AlertTimelineDialog } from './alert-timeline-dialog';

const heatAlert = alert('a2', { type: 'HEATSTROKE', level: 'CRITICAL' });
const person = (n: number) => ({
  alertId: `a${n}`,
  type: 'HEATSTROKE' as const,
  level: 'CRITICAL' as const,
  wearerName: `作業員${String(n).padStart(2, '0')}`,
});
const notice = {
  kind: 'notification' as const,
  step: 1,
  channel: 'SMS' as const,
  recipient: '+819012340000',
  recipientName: '安全 管理者',
  provider: 'embedded',
  providerStatus: null,
  sentAt: null,
  deliveredAt: null,
  failedAt: null,
  error: null,
};

/** A heat alert held for the group window, then sent in one message with six others. */
const TIMELINE: AlertTimelineResponse = {
  alert: heatAlert,
  events: [
    { kind: 'raised', at: '2026-08-03T03:56:30.000Z', notified: true, snoozeId: null },
    {
      ...notice,
      at: '2026-08-03T03:56:30.000Z',
      status: 'withheld',
      reason: 'held',
      covers: [person(2)],
    },
    {
      ...notice,
      at: '2026-08-03T03:58:00.000Z',
      status: 'delivered',
      deliveredAt: '2026-08-03T03:58:00.000Z',
      reason: 'grouped',
      covers: [2, 3, 4, 5, 6, 7, 8].map(person),
    },
  ],
};

afterEach(() => localStorage.clear());

describe('AlertTimelineDialog: notices the policy held or grouped', () => {
  it.each([
    [
      'ja' as const,
      [
        'まとめ時間内のため保留（時間の終わりにまとめて送信）',
        '保留していたアラートとまとめて1通で送信対象 7件: 作業員02（熱中症）、作業員03（熱中症）、作業員04（熱中症）、作業員05（熱中症）、作業員06（熱中症） ほか2件',
      ],
      '未送信',
    ],
    [
      'en' as const,
      [
        'Held for the group window (sent with the others at its end)',
        'Sent as one message with the held alertsCovers 7: 作業員02 (Heatstroke), 作業員03 (Heatstroke), 作業員04 (Heatstroke), 作業員05 (Heatstroke), 作業員06 (Heatstroke) and 2 more',
      ],
      'Not sent',
    ],
  ])(
    '%s: says why the first notice waited and whom the grouped message named',
    async (lng, reasons, withheld) => {
      stubServer((url) =>
        url.startsWith('/v2/alert/a2/timeline') ? json(200, TIMELINE) : json(404, {}),
      );
      signInAsRole('ORGANIZATION_OWNER');
      await renderAlerts(<AlertTimelineDialog alert={heatAlert} onClose={() => {}} />, { lng });
      const dialog = await screen.findByTestId('alert-timeline');
      const found = await within(dialog).findAllByTestId('timeline-notice-reason');
      expect(found.map((e) => e.textContent)).toEqual(reasons);
      expect(within(dialog).getAllByTestId('timeline-delivery')[0]?.textContent).toBe(withheld);
    },
  );
});
