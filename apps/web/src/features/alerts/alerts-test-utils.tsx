import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import enAlerts from '../../../public/locales/en/alerts.json';
import jaAlerts from '../../../public/locales/ja/alerts.json';
import { session } from '../../lib/session';
import { createTestI18n } from '../../testing/render';

export { enAlerts, jaAlerts };

/** Renders alert UI with the common and alerts texts, a query client and the toaster; `path` is also the window's. */
export async function renderAlerts(ui: ReactNode, { path = '/', lng = 'ja' }: { path?: string; lng?: 'ja' | 'en' } = {}) {
  window.history.replaceState(null, '', path);
  const i18n = await createTestI18n(lng);
  i18n.addResourceBundle('ja', 'alerts', jaAlerts);
  i18n.addResourceBundle('en', 'alerts', enAlerts);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        <Toaster visibleToasts={1} duration={5000} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...view, queryClient, i18n };
}

export function signInAsRole(role: string) {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify({ name: 'Staff', role, uid: 'u-staff', devices: [], linkedUids: [], mail: 's@example.com', mailVerified: true, gatewayId: null, agreedTermsOfUse: true, mediromOrganizationId: null }));
  session.reload();
}
