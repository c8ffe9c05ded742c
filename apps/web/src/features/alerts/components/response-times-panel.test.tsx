import type { GroupLiveState, ResponseTimesResponse } from '@wearable/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, stubServer } from '../../../testing/render';
import { renderAlerts, signInAsRole } from '../alerts-test-utils';
import { ResponseTimesPanel } from './response-times-panel';

const group = (id: string, name: string): GroupLiveState => ({
  id,
  clientId: 'c1',
  name,
  wearerCount: 3,
  notWornCount: 0,
  offlineCount: 0,
  openAlertCount: 0,
  gatewayCount: 1,
});

/** The whole organisation: 10 alerts, confirmed in 5 minutes; the second site alone: 2 alerts, in 30 seconds. */
function figures(groupId: string | null): ResponseTimesResponse {
  const seconds = groupId === 'g2' ? 30 : 300;
  const f = { count: 1, medianSeconds: seconds, p90Seconds: seconds };
  return {
    clientId: 'c1',
    groupId,
    uid: null,
    timeZone: 'Asia/Tokyo',
    from: '2025-12',
    to: '2026-11',
    rows: [
      {
        month: null,
        type: null,
        alerts: groupId === 'g2' ? 2 : 10,
        toNotice: f,
        toDelivery: f,
        toConfirm: f,
      },
    ],
  };
}

afterEach(() => localStorage.clear());

describe('ResponseTimesPanel', () => {
  it('shows the organisation, then the group picked, and downloads that group’s CSV', async () => {
    const calls = stubServer((url) => {
      if (url.startsWith('/v2/client/c1/groups'))
        return json(200, { groups: [group('g1', '第一現場'), group('g2', '第二現場')] });
      if (url.startsWith('/v2/alert/responseTimes?'))
        return json(200, figures(new URL(url, 'http://x').searchParams.get('groupId')));
      return json(404, {});
    });
    signInAsRole('ORGANIZATION_OWNER');
    await renderAlerts(<ResponseTimesPanel clientId="c1" />, { path: '/alert-histories' });
    const panel = await screen.findByTestId('response-times');
    await waitFor(() => expect(panel.textContent).toContain('5分0秒'));
    const picker = await screen.findByLabelText('グループ');
    expect([...(picker as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'すべてのグループ',
      '第一現場',
      '第二現場',
    ]);

    picker.focus();
    fireEvent.change(picker, { target: { value: 'g2' } });
    await waitFor(() => expect(screen.getByTestId('response-times').textContent).toContain('30秒'));
    // The panel stayed while the group's figures loaded: the picker is the same element and keeps the focus.
    expect(document.activeElement).toBe(picker);
    const asked = calls
      .filter((c) => c.url.startsWith('/v2/alert/responseTimes?'))
      .map((c) => new URL(c.url, 'http://x').searchParams.get('groupId'));
    expect(asked).toEqual([null, 'g2']);

    fireEvent.click(screen.getByTestId('response-times-csv'));
    await waitFor(() =>
      expect(calls.some((c) => c.url.startsWith('/v2/alert/responseTimesCsv?'))).toBe(true),
    );
    const csv = new URL(
      calls.find((c) => c.url.startsWith('/v2/alert/responseTimesCsv?'))!.url,
      'http://x',
    );
    expect(Object.fromEntries(csv.searchParams)).toEqual({
      clientId: 'c1',
      groupId: 'g2',
      lng: 'ja',
    });
  });
});
