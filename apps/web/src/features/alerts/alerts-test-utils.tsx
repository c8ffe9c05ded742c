import type { ReactNode } from 'react';
import enAlerts from '../../../public/locales/en/alerts.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import { session } from '../../lib/session';
import { renderWithApp } from '../../testing/render';

export { enAlerts, jaAlerts };

/** Renders alert UI with the common and alerts texts, a query client and the toaster; `path` is also the window's. */
export async function renderAlerts(ui: ReactNode, { path = '/', lng = 'ja' }: { path?: string; lng?: 'ja' | 'en' } = {}) {
  window.history.replaceState(null, '', path);
  return renderWithApp(ui, { path, lng, namespaces: [{ ns: 'alerts', ja: jaAlerts, en: enAlerts }] });
}

export function signInAsRole(role: string) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify({ name: 'Staff', role, uid: 'u-staff', devices: [], linkedUids: [], mail: 's@example.com', mailVerified: true, gatewayId: null, agreedTermsOfUse: true, mediromOrganizationId: null }));
  session.reload();
}
