import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../lib/app-path';

/** E-mail link verification lands here; the flow itself comes with a later issue. */
export function VerifyPage() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 data-testid="page-heading" className="text-xl font-semibold text-slate-900">
          {t('verify.title')}
        </h1>
        <p className="mt-2 text-sm text-slate-600">{t('verify.body')}</p>
        <AppLink to="/login" className="mt-6 inline-block text-sm text-teal-700 underline-offset-4 hover:underline">
          {t('verify.backToLogin')}
        </AppLink>
      </div>
    </main>
  );
}
