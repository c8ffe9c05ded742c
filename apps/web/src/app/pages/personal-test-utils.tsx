import type { UserDevice, UserInfo } from '@wearable/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import enAlerts from '../../../public/locales/en/alerts.json';
import enFamily from '../../../public/locales/en/family.json';
import enLive from '../../../public/locales/en/live.json';
import enRecords from '../../../public/locales/en/records.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import jaFamily from '../../../public/locales/ja/family.json';
import jaLive from '../../../public/locales/ja/live.json';
import jaRecords from '../../../public/locales/ja/records.json';
import { session } from '../../lib/session';
import { createTestI18n } from '../../testing/render';

/** Renders a personal page with every namespace it reads (common, records, alerts, live, family). */
export async function renderPersonal(ui: ReactNode, lng: 'ja' | 'en' = 'ja') {
  const i18n = await createTestI18n(lng);
  for (const [l, bundles] of [
    ['ja', { records: jaRecords, alerts: jaAlerts, live: jaLive, family: jaFamily }],
    ['en', { records: enRecords, alerts: enAlerts, live: enLive, family: enFamily }],
  ] as const) {
    for (const [ns, bundle] of Object.entries(bundles)) i18n.addResourceBundle(l, ns, bundle);
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/user/record']}>{ui}</MemoryRouter>
        <Toaster visibleToasts={1} duration={5000} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...view, queryClient, i18n };
}

export const DEVICE: UserDevice = {
  deviceId: 'br-1',
  deviceName: 'BR-001',
  uid: 'w1',
  usingWearableId: 'br-1',
  name: '佐藤 健太',
};

export function personalUser(role: 'PERSONAL' | 'PERSONAL_SELF'): UserInfo {
  return {
    name: role === 'PERSONAL' ? '佐藤 良子' : '清水 花子',
    role,
    uid: role === 'PERSONAL' ? 'p1' : 'w20',
    devices: role === 'PERSONAL' ? [DEVICE] : [],
    linkedUids: role === 'PERSONAL' ? ['w1'] : ['w20'],
    mail: 'p@example.com',
    mailVerified: true,
    gatewayId: null,
    agreedTermsOfUse: true,
    mediromOrganizationId: null,
  };
}

/** Stores a signed-in personal user (and for PERSONAL the chosen wearer) as the app would. */
export function signInPersonal(role: 'PERSONAL' | 'PERSONAL_SELF') {
  localStorage.clear();
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(personalUser(role)));
  if (role === 'PERSONAL') localStorage.setItem('selectedDevice', JSON.stringify(DEVICE));
  session.reload();
}
