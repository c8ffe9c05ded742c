import type { ResponseTimesResponse } from '@wearable/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { renderAlerts, signInAsRole } from '../alerts-test-utils';
import { WearerResponseTimes } from './wearer-response-times';

const f = (s: number | null, count = 1) => ({ count, medianSeconds: s, p90Seconds: s });

function answer(alerts: number): ResponseTimesResponse {
  return {
    clientId: 'c1',
    groupId: null,
    uid: 'w1',
    timeZone: 'Asia/Tokyo',
    from: '2026-10',
    to: '2026-10',
    rows: [
      {
        month: '2026-10',
        type: null,
        alerts,
        toNotice: f(12),
        toDelivery: f(30),
        toConfirm: f(300),
      },
      { month: null, type: null, alerts, toNotice: f(12), toDelivery: f(30), toConfirm: f(300) },
      ...(alerts > 0
        ? [
            {
              month: null,
              type: 'SOS_CALL' as const,
              alerts,
              toNotice: f(12),
              toDelivery: f(30),
              toConfirm: f(300),
            },
          ]
        : []),
      {
        month: null,
        type: 'HEART_RATE' as const,
        alerts: 0,
        toNotice: f(null, 0),
        toDelivery: f(null, 0),
        toConfirm: f(null, 0),
      },
    ],
  };
}

afterEach(() => localStorage.clear());

describe('WearerResponseTimes (the monthly report of a wearer)', () => {
  it('asks for the wearer and the month, and shows the whole month per type that had alerts', async () => {
    const calls = stubServer(() => json(200, answer(2)));
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<WearerResponseTimes clientId="c1" uid="w1" month="2026-10" />);
    const section = await screen.findByTestId('report-response-times');
    const rows = within(section).getAllByTestId('response-times-row');
    expect(rows.map((r) => r.querySelector('th')?.textContent)).toEqual([
      'すべての種別',
      'SOS発信',
    ]);
    expect(rows[1]!.textContent).toContain('12秒');
    expect(rows[1]!.textContent).toContain('5分0秒');
    expect(Object.fromEntries(new URL(calls[0]!.url, 'http://x').searchParams)).toEqual({
      clientId: 'c1',
      uid: 'w1',
      from: '2026-10',
      to: '2026-10',
    });
  });

  it('says so when the wearer had no alert that month', async () => {
    stubServer(() => json(200, answer(0)));
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<WearerResponseTimes clientId="c1" uid="w1" month="2026-10" />);
    expect(await screen.findByText('この月のアラートはありません。')).toBeTruthy();
    expect(screen.queryByTestId('response-times-row')).toBeNull();
  });
});
