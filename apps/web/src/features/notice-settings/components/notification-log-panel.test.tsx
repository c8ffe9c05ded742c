import type { AlertType, NotificationView, NotificationsResponse } from '@wearable/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import enSettings from '../../../../public/locales/en/staff-settings.json';
import jaSettings from '../../../../public/locales/ja/staff-settings.json';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { NotificationLogPanel } from './notification-log-panel';

const TYPE_LABELS: Record<string, Record<string, string>> = {
  ja: { HEATSTROKE: '熱中症', ADVANCED_HEATSTROKE_RISK: '熱中症リスク（深部体温）' },
  en: { HEATSTROKE: 'Heatstroke', ADVANCED_HEATSTROKE_RISK: 'Heatstroke risk (core temperature)' },
};

const heat = (n: number) => ({
  alertId: `a${n}`,
  type: 'HEATSTROKE' as const,
  level: 'CRITICAL' as const,
  wearerName: `作業員${String(n).padStart(2, '0')}`,
});

function entry(id: string, patch: Partial<NotificationView>): NotificationView {
  return {
    id,
    alertId: 'a1',
    channel: 'SMS',
    recipient: '+819012340000',
    userId: 'u1',
    provider: 'embedded',
    status: 'delivered',
    error: null,
    step: 1,
    text: '',
    at: '2026-08-03T03:58:00.000Z',
    reason: null,
    covers: [],
    waiting: null,
    ...patch,
  };
}

/** A hot afternoon's log, newest first: a summary, a capped alert, a grouped message, a held and an inhibited alert. */
const LOG: NotificationsResponse = {
  notifications: [
    entry('n5', {
      reason: 'capSummary',
      waiting: 4,
      covers: [1, 2, 3, 4].map(heat),
      text: '【通知上限】この1時間の通知が上限(6件)に達しました。',
    }),
    entry('n4', { reason: 'capped', status: 'withheld', covers: [heat(7)] }),
    entry('n3', {
      reason: 'grouped',
      covers: [1, 2, 3, 4, 5, 6, 7].map(heat),
      text: '【重大】第一現場: 熱中症 7名 (作業員01, 作業員02, 作業員03, 作業員04, 作業員05 他) 12:56-12:58',
    }),
    entry('n2', { reason: 'held', status: 'withheld', covers: [heat(2)] }),
    entry('n1', {
      reason: 'inhibited',
      status: 'withheld',
      covers: [{ ...heat(9), type: 'ADVANCED_HEATSTROKE_RISK', level: 'CAUTION' }],
    }),
    entry('n0', { reason: null, text: '【テスト】第一現場 のアラート通知のテストです。' }),
  ],
  total: 6,
  page: 1,
  pageSize: 10,
};

async function renderLog(lng: 'ja' | 'en') {
  stubServer((url) => (url.startsWith('/v2/notifications') ? json(200, LOG) : json(404, {})));
  localStorage.setItem('accessToken', 'access-0');
  await renderWithApp(
    <NotificationLogPanel typeLabel={(type: AlertType) => TYPE_LABELS[lng]![type] ?? type} />,
    { lng, namespaces: [{ ns: 'staff-settings', ja: jaSettings, en: enSettings }] },
  );
  return screen.findAllByTestId('notification-log-row');
}

const reasonOf = (row: HTMLElement) =>
  within(row).queryByTestId('notification-log-reason')?.textContent ?? null;

afterEach(() => localStorage.clear());

describe('NotificationLogPanel: what the notification policy did and why', () => {
  it('ja: each grouped, held, capped, inhibited and summary entry says why, and names the people and types it covered', async () => {
    const rows = await renderLog('ja');
    expect(rows.map(reasonOf)).toEqual([
      '上限のお知らせ: ほか4件のアラートはコンソールで確認対象 4件: 作業員01（熱中症）、作業員02（熱中症）、作業員03（熱中症）、作業員04（熱中症）',
      '未送信: この1時間の送信上限を超えたため（コンソールで確認できます）対象 1件: 作業員07（熱中症）',
      'まとめて送信: 保留していたアラートを1通に対象 7件: 作業員01（熱中症）、作業員02（熱中症）、作業員03（熱中症）、作業員04（熱中症）、作業員05（熱中症） ほか2件',
      '保留: まとめ時間内のため、時間の終わりにまとめて送信対象 1件: 作業員02（熱中症）',
      '未送信: 現場が「危険」レベルのため（現場の通知で連絡済み）対象 1件: 作業員09（熱中症リスク（深部体温））',
      null,
    ]);
    // Withheld entries read as not sent; the others keep the provider's status.
    expect(rows.map((r) => within(r).getByTestId('notification-log-status').textContent)).toEqual([
      '配信済み',
      '未送信',
      '配信済み',
      '未送信',
      '未送信',
      '配信済み',
    ]);
  });

  it('en: the same log in English', async () => {
    const rows = await renderLog('en');
    expect(reasonOf(rows[0]!)).toBe(
      'Limit reached: 4 more alerts wait in the consoleCovers 4: 作業員01 (Heatstroke), 作業員02 (Heatstroke), 作業員03 (Heatstroke), 作業員04 (Heatstroke)',
    );
    expect(reasonOf(rows[2]!)).toMatch(
      /^Grouped: the held alerts in one messageCovers 7: .+ and 2 more$/,
    );
    expect(reasonOf(rows[4]!)).toMatch(/^Not sent: the site is at DANGER/);
    expect(within(rows[1]!).getByTestId('notification-log-status').textContent).toBe('not sent');
  });
});
