import type { AlertView } from '@wearable/domain';
import type { ReactNode } from 'react';
import enAlerts from '../../../public/locales/en/alerts.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import { session } from '../../lib/session';
import { renderWithApp } from '../../testing/render';

export { enAlerts, jaAlerts };

/** Renders alert UI with the common and alerts texts, a query client and the toaster; `path` is also the window's. */
export async function renderAlerts(
  ui: ReactNode,
  { path = '/', lng = 'ja' }: { path?: string; lng?: 'ja' | 'en' } = {},
) {
  window.history.replaceState(null, '', path);
  return renderWithApp(ui, {
    path,
    lng,
    namespaces: [{ ns: 'alerts', ja: jaAlerts, en: enAlerts }],
  });
}

export function signInAsRole(role: string) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem(
    'userInfo',
    JSON.stringify({
      name: 'Staff',
      role,
      uid: 'u-staff',
      devices: [],
      linkedUids: [],
      mail: 's@example.com',
      mailVerified: true,
      gatewayId: null,
      agreedTermsOfUse: true,
      mediromOrganizationId: null,
    }),
  );
  session.reload();
}

/** An open, unconfirmed heart-rate alert of wearer `w-{id}` in group g1 of c1; `patch` changes what a test needs. */
export function alert(id: string, patch: Partial<AlertView> = {}): AlertView {
  return {
    id,
    type: 'HEART_RATE',
    level: 'CAUTION',
    status: 'OPEN',
    openedAt: '2026-11-21T09:00:00.000Z',
    closedAt: null,
    closeReason: null,
    confirmedAt: null,
    confirmedBy: null,
    confirmReason: null,
    confirmNote: null,
    procedureSteps: [],
    wearer: { uid: `w-${id}`, name: `利用者 ${id}` },
    device: null,
    groupId: 'g1',
    groupName: '第一現場',
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
