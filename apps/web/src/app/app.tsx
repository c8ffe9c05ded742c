import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, useRoutes } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { session } from '../lib/session';
import { AppSpinner } from './app-spinner';
import { routes } from './routes';

function AppRoutes() {
  return useRoutes(routes);
}

/** Waits for the common namespace so no untranslated key ever shows. */
function TranslationsGate({ children }: { children: React.ReactNode }) {
  // Each page's heading names the tab (usePageHeading in components/ui/page-heading).
  const { ready } = useTranslation();
  return ready ? children : <AppSpinner />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  // Whatever ends the session (logout, failed refresh) also forgets cached data.
  useEffect(() => session.onEnd(() => queryClient.clear()), [queryClient]);
  return (
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={queryClient}>
        <TranslationsGate>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </TranslationsGate>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
