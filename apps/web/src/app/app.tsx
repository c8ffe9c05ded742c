import i18next from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, useRoutes } from 'react-router';
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

/** The query cache comes with the pages that use it (QueryRoot), not with the sign-in form. */
export function App() {
  return (
    <I18nextProvider i18n={i18next}>
      <TranslationsGate>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </TranslationsGate>
    </I18nextProvider>
  );
}
