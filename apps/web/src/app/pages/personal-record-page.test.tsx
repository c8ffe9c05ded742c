import type {
  AlertView,
  HistoryPoint,
  MonthlyReportResponse,
  WearerSummary,
} from '@wearable/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecordView } from '../../features/records';
import { json, renderWithApp, stubServer } from '../../testing/render';
import { PersonalRecordPage } from './personal-record-page';
import { renderPersonal, signInPersonal } from './personal-test-utils';
import { summaryColumnsBody } from '../../testing/summary-columns';

const NOW = Date.now();
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

function summary(uid: string): WearerSummary {
  return {
    uid,
    name: '佐藤 健太',
    clientId: 'c1',
    groupId: 'g1',
    groupName: '第一現場',
    serialNumber: 'BR-001',
    heartRate: 72,
    skinTemperature: 34.2,
    worn: true,
    battery: 15,
    connection: 'online',
    lastSeenAt: minutesAgo(1),
    openAlerts: [],
  };
}

// One night (local 23:00-23:02), so the sleep rows do not depend on when the test runs.
const night = (m: number) => new Date(2026, 10, 3, 23, m).toISOString();
const POINTS: HistoryPoint[] = [
  {
    at: night(0),
    heartRate: 60,
    skinTemperature: 34,
    sleepStage: 1,
    stressLevel: 'LOW',
    steps: 10,
  },
  {
    at: night(1),
    heartRate: 80,
    skinTemperature: 35,
    sleepStage: 2,
    stressLevel: 'HIGH',
    steps: 5,
  },
  {
    at: night(2),
    heartRate: 100,
    skinTemperature: null,
    sleepStage: 2,
    stressLevel: null,
    steps: 0,
  },
];

/** The history answer as the server gives it: the window asked for, the zone, the window's true figures. */
function historyOf(points: HistoryPoint[]) {
  const hr = points.flatMap((p) => (typeof p.heartRate === 'number' ? [p.heartRate] : []));
  const temp = points.flatMap((p) =>
    typeof p.skinTemperature === 'number' ? [p.skinTemperature] : [],
  );
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    uid: 'w1',
    from: new Date(Date.now() - 86_400_000).toISOString(),
    to: new Date().toISOString(),
    metrics: [],
    points,
    timeZone: 'Asia/Tokyo',
    summary: {
      heartRate: hr.length ? { min: Math.min(...hr), avg: mean(hr), max: Math.max(...hr) } : null,
      skinTemperature: temp.length ? { avg: mean(temp), max: Math.max(...temp) } : null,
    },
  };
}

function alert(id: string, patch: Partial<AlertView>): AlertView {
  return {
    id,
    type: 'HEART_RATE',
    level: 'CAUTION',
    status: 'OPEN',
    openedAt: minutesAgo(10),
    closedAt: null,
    closeReason: null,
    confirmedAt: null,
    confirmedBy: null,
    confirmReason: null,
    confirmNote: null,
    procedureSteps: [],
    wearer: { uid: 'w1', name: '佐藤 健太' },
    device: null,
    groupId: 'g1',
    groupName: null,
    clientId: 'c1',
    cause: {
      rule: 'heart-rate-above-upper-bound',
      values: { heartRate: 192, lowerBound: 40, upperBound: 180 },
      windowStart: null,
      windowEnd: null,
    },
    notified: true,
    place: null,
    ...patch,
  };
}

function report(uid: string): MonthlyReportResponse {
  const figures = {
    heartRate: { avg: null, min: null, max: null },
    skinTemperature: { avg: null, max: null },
    steps: 0,
    wornMinutes: 0,
    sleepMinutes: { DEEP_SLEEP: 0, LIGHT_SLEEP: 0, RESTLESS_SLEEP: 0, AWAKE: 0 },
    stressHours: { NONE: 0, LOW: 0, MEDIUM: 0, HIGH: 0, OVERLOAD: 0 },
    alerts: {},
  };
  return {
    uid,
    name: 'Wearer',
    month: '2026-11',
    timeZone: 'Asia/Tokyo',
    days: [
      { ...figures, date: '2026-11-01', steps: 4321 },
      { ...figures, date: '2026-11-02', steps: 0 },
    ],
    totals: { ...figures, steps: 4321 },
  };
}

interface Answers {
  history?: (url: string) => Response | Promise<Response>;
}

function server({ history }: Answers = {}) {
  return stubServer((url) => {
    if (url.startsWith('/v3/device/summary'))
      return json(200, summaryColumnsBody([summary('w1'), summary('w20')]));
    if (url.startsWith('/v3/device/history'))
      return history ? history(url) : json(200, historyOf(POINTS));
    if (url.startsWith('/v2/device/monthlyReport')) return json(200, report('w1'));
    if (url.startsWith('/v2/alert/list')) {
      return json(200, {
        alerts: [
          alert('a1', {}),
          alert('a2', {
            type: 'SOS_CALL',
            level: 'EMERGENCY',
            status: 'CLOSED',
            cause: { rule: 'sos-button', values: {}, windowStart: null, windowEnd: null },
          }),
        ],
        total: 2,
        page: 1,
        pageSize: 100,
      });
    }
    return json(404, {});
  });
}

const param = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name);

describe('/user/record', () => {
  beforeEach(() => signInPersonal('PERSONAL'));

  it('PERSONAL: the chosen wearer, a link to switch, the latest state and the heart rate of the day', async () => {
    const calls = server();
    await renderPersonal(<PersonalRecordPage />);
    expect((await screen.findByTestId('selected-device'))?.textContent).toContain('佐藤 健太');
    expect(screen.getByTestId('switch-wearer')?.getAttribute('href')).toBe('/select-device');
    const latest = screen.getByTestId('record-latest');
    await waitFor(() =>
      expect(within(latest).getByTestId('latest-heartRate')?.textContent).toContain('72'),
    );
    expect(within(latest).getByTestId('latest-battery')?.textContent).toContain('15');
    expect((await screen.findByTestId('record-heartRate-min'))?.textContent).toContain('60 bpm');
    expect(screen.getByTestId('record-heartRate-avg')?.textContent).toContain('80 bpm');
    expect(screen.getByTestId('record-heartRate-max')?.textContent).toContain('100 bpm');
    const history = calls.find((c) => c.url.startsWith('/v3/device/history'));
    expect(history && param(history.url, 'uid')).toBe('w1');
    expect(history && param(history.url, 'points')).toBe('1440');
  });

  it("the day's min and max are the server's true extremes, not the buckets' averages (issue 36)", async () => {
    // One bucket averaging 93.4 bpm over readings of 78 ... 118: the page used to say min = avg = max = 93.
    const one = [{ at: night(0), heartRate: 93.4, heartRateMin: 78, heartRateMax: 118 }];
    server({
      history: () =>
        json(200, {
          ...historyOf(one),
          summary: { heartRate: { min: 78, avg: 93.4, max: 118 }, skinTemperature: null },
        }),
    });
    await renderPersonal(<PersonalRecordPage />);
    expect((await screen.findByTestId('record-heartRate-min'))?.textContent).toContain('78 bpm');
    expect(screen.getByTestId('record-heartRate-max')?.textContent).toContain('118 bpm');
  });

  it('PERSONAL_SELF: their own record, no wearer switch', async () => {
    signInPersonal('PERSONAL_SELF');
    const calls = server();
    await renderPersonal(<PersonalRecordPage />);
    await screen.findByTestId('record-heartRate-max');
    expect(screen.queryByTestId('switch-wearer')).toBeNull();
    // Asked again once the summary says when the wearer was heard (the history may predate it).
    const asked = calls.filter((c) => c.url.startsWith('/v3/device/history'));
    expect(new Set(asked.map((c) => param(c.url, 'uid')))).toEqual(new Set(['w20']));
  });

  it('asks for the history again when the wearer is heard anew, not only each minute', async () => {
    // The readings are rolled up a moment after they arrive: a page opened in between got an
    // empty day, and kept it until the next minute's refetch.
    let rolledUp = false;
    const calls = server({
      history: () => json(200, historyOf(rolledUp ? POINTS : [])),
    });
    function Harness() {
      const [seenAt, setSeenAt] = useState(minutesAgo(2));
      return (
        <>
          <button type="button" onClick={() => setSeenAt(minutesAgo(0))}>
            heard
          </button>
          <RecordView uid="w1" seenAt={seenAt} renderAlerts={() => null} />
        </>
      );
    }
    await renderWithApp(<Harness />);
    expect(await screen.findByTestId('page-empty')).toBeTruthy();
    const asked = () => calls.filter((c) => c.url.startsWith('/v3/device/history')).length;
    expect(asked()).toBe(1);
    rolledUp = true;
    fireEvent.click(screen.getByRole('button', { name: 'heard' }));
    expect(await screen.findByTestId('record-heartRate-max')).toBeTruthy();
    expect(screen.queryByTestId('page-empty')).toBeNull();
    expect(asked()).toBe(2);
  });

  it('loading, then an error with a retry that recovers, and an empty period', async () => {
    let answer: 'wait' | 'fail' | 'empty' = 'wait';
    let release: () => void = () => undefined;
    server({
      history: async () => {
        if (answer === 'wait') await new Promise<void>((resolve) => (release = resolve));
        if (answer === 'fail') return json(500, {});
        return json(200, historyOf([]));
      },
    });
    await renderPersonal(<PersonalRecordPage />);
    const view = await screen.findByTestId('record-view');
    expect(await within(view).findByTestId('page-loading')).toBeTruthy();
    answer = 'fail';
    release();
    expect((await within(view).findByTestId('page-error'))?.textContent).toContain(
      'データを読み込めませんでした',
    );
    answer = 'empty';
    fireEvent.click(within(view).getByRole('button', { name: '再読み込み' }));
    expect((await within(view).findByTestId('page-empty'))?.textContent).toContain(
      'この期間の記録はありません。',
    );
  });

  it('sleep minutes by night, stress time per level, steps of the period, alerts with level colour and why', async () => {
    server();
    await renderPersonal(<PersonalRecordPage />);
    await screen.findByTestId('record-heartRate-max');

    fireEvent.click(screen.getByRole('tab', { name: '睡眠' }));
    const night = await screen.findByTestId('sleep-night');
    expect(within(night).getByTestId('sleep-DEEP_SLEEP')?.textContent).toContain('1分');
    expect(within(night).getByTestId('sleep-LIGHT_SLEEP')?.textContent).toContain('2分');
    expect(within(night).getByTestId('sleep-asleep')?.textContent).toContain('0時間3分');

    fireEvent.click(screen.getByRole('tab', { name: 'ストレス' }));
    expect((await screen.findByTestId('stress-HIGH'))?.textContent).toContain('0時間1分');

    fireEvent.click(screen.getByRole('tab', { name: '歩数' }));
    // The day's steps per hour, from the history (the switch says 日), not the month's report.
    expect((await screen.findByTestId('steps-total'))?.textContent).toContain('15歩');
    expect(screen.getAllByTestId('steps-day')).toHaveLength(1);

    fireEvent.click(screen.getByRole('tab', { name: 'アラート' }));
    const alerts = await screen.findAllByTestId('personal-alert');
    expect(alerts).toHaveLength(2);
    expect(
      within(alerts[0] as HTMLElement)
        .getByTestId('alert-badge')
        ?.getAttribute('data-colour'),
    ).toBe('amber');
    expect(alerts[0]?.textContent).toContain('192');
    expect(
      within(alerts[1] as HTMLElement)
        .getByTestId('alert-badge')
        ?.getAttribute('data-colour'),
    ).toBe('red');
  });

  it('the period buttons ask for a week in 5-minute buckets; tabs move with the arrow keys', async () => {
    const calls = server();
    await renderPersonal(<PersonalRecordPage />);
    await screen.findByTestId('record-heartRate-max');
    fireEvent.click(screen.getByRole('button', { name: '週' }));
    expect(screen.getByRole('button', { name: '週' })?.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.url.startsWith('/v3/device/history') && param(c.url, 'points') === '2016',
        ),
      ).toBe(true),
    );
    const first = screen.getByRole('tab', { name: '心拍数' });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: '体表温度' })?.getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '体表温度' }));
  });
});
