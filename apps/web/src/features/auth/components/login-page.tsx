import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { AppLink } from '../../../lib/app-path';
import { signIn } from '../api/auth-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { OidcButton } from './oidc-button';
import { SignInCard } from './sign-in-card';
import { TotpStep } from './totp-step';

const KNOWN_ERRORS = ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS', 'VALIDATION_FAILED'];

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600';

export function LoginPage() {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // The password was right but the account needs its TOTP code (or to enrol) first.
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const result = await signIn({ email: field('email').trim(), password: field('password') });
    if (!result.ok) {
      const code = result.data?.code ?? '';
      setError(t(KNOWN_ERRORS.includes(code) ? `login.errors.${code}` : 'login.errors.generic'));
      setPending(false);
      return;
    }
    if ('mfaRequired' in result.data) {
      setChallenge(result.data);
      setPending(false);
      return;
    }
    if (!(await finish(result.data))) {
      setError(t('login.errors.generic'));
      setPending(false);
    }
  }

  if (challenge !== null) {
    return (
      <SignInCard title={t('login.title')}>
        <div className="mt-6">
          <TotpStep challenge={challenge} onRestart={() => setChallenge(null)} />
        </div>
      </SignInCard>
    );
  }
  return (
    <main className="relative flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <LanguageSwitch className="absolute top-4 right-4" />
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 data-testid="page-heading" className="text-xl font-semibold text-slate-900">
          {t('login.title')}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{t('login.lead')}</p>
        <form className="mt-6 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <label className="block text-sm font-medium text-slate-700">
            {t('login.email')}
            <input name="email" type="email" autoComplete="username" required className={inputClass} />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('login.password')}
            <input name="password" type="password" autoComplete="current-password" required className={inputClass} />
          </label>
          {error !== null && (
            <p role="alert" data-testid="login-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <Button type="submit" variant="primary" className="w-full" disabled={pending} data-testid="login-submit">
            {pending ? t('login.submitting') : t('login.submit')}
          </Button>
        </form>
        <OidcButton />
        <p className="mt-6 text-center text-sm">
          <AppLink to="/demo" className="text-teal-700 underline-offset-4 hover:underline">
            {t('login.tryDemo')}
          </AppLink>
        </p>
      </div>
    </main>
  );
}
