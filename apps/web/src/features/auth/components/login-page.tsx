import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge, SignInMethod, SignInResult } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { DEMO_PREFIX } from '../../../lib/demo';
import { signIn } from '../api/auth-api';
import { useSignInMethods } from '../api/sign-in-methods-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { EmailLinkForm } from './email-link-form';
import { OidcButton } from './oidc-button';
import { PasskeySignInButton } from './passkey-sign-in-button';
import { PasswordResetRequestForm } from './password-reset-request-form';
import { PhoneSignInForm } from './phone-sign-in-form';
import { SignInCard } from './sign-in-card';
import { inputClass } from './sign-in-form-parts';
import { SignInMethodChoice } from './sign-in-method-choice';

// Only an account with a second factor needs it, after its first step: not part of what /login loads (issue 20).
const SecondFactorStep = lazy(async () => ({
  default: (await import('./second-factor-step')).SecondFactorStep,
}));

const KNOWN_ERRORS = [
  'INVALID_CREDENTIALS',
  'TOO_MANY_ATTEMPTS',
  'PASSWORD_SIGN_IN_PAUSED',
  'VALIDATION_FAILED',
];

export function LoginPage() {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const [error, setError] = useState<string | null>(null);
  // Refused for too many failures: the email link still works, so it is offered at once.
  const [limited, setLimited] = useState(false);
  const [pending, setPending] = useState(false);
  // The first step was right but the account needs its TOTP code (or to enrol) first.
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  // Until the server answers, the password form (always offered before this page knew of others).
  const offered = useSignInMethods();
  const methods = offered?.methods ?? ['password'];
  const [chosen, setChosen] = useState<SignInMethod>('password');
  // "パスワードを忘れた場合": the reset link's request, in place of the sign-in forms.
  const [forgot, setForgot] = useState(false);
  const method = methods.includes(chosen) ? chosen : (methods[0] ?? 'password');

  /** Every method ends here: the tokens open the app, a challenge asks for the TOTP code. */
  async function signedIn(result: SignInResult): Promise<boolean> {
    if ('mfaRequired' in result) {
      setChallenge(result);
      return true;
    }
    // Staff in their organisation's grace period: to the account page, where a passkey or TOTP is added.
    return finish(result, result.secondFactorEnrolBy ? paths.user.info.build() : undefined);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    setLimited(false);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const result = await signIn({ email: field('email').trim(), password: field('password') });
    if (!result.ok) {
      const code = result.data?.code ?? '';
      const minutes = Math.max(1, Math.ceil((result.data?.retryAfterSeconds ?? 60) / 60));
      setError(
        t(KNOWN_ERRORS.includes(code) ? `login.errors.${code}` : 'login.errors.generic', {
          count: minutes,
        }),
      );
      setLimited(code === 'TOO_MANY_ATTEMPTS' || code === 'PASSWORD_SIGN_IN_PAUSED');
      setPending(false);
      return;
    }
    if (!(await signedIn(result.data))) setError(t('login.errors.generic'));
    setPending(false);
  }

  if (challenge !== null) {
    return (
      <SignInCard title={t('login.title')}>
        <div className="mt-6">
          <Suspense fallback={<Spinner label={t('common.loading')} />}>
            <SecondFactorStep challenge={challenge} onRestart={() => setChallenge(null)} />
          </Suspense>
        </div>
      </SignInCard>
    );
  }
  if (forgot) {
    return (
      <SignInCard title={t('login.title')}>
        <div className="mt-6">
          <PasswordResetRequestForm onBack={() => setForgot(false)} />
        </div>
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t('login.title')}>
      <SignInMethodChoice methods={methods} value={method} onChange={setChosen} />
      {method === 'emailLink' && (
        <div className="mt-6">
          <EmailLinkForm />
        </div>
      )}
      {method === 'phone' && (
        <div className="mt-6">
          <PhoneSignInForm onSignedIn={signedIn} />
        </div>
      )}
      {method === 'password' && (
        <>
          <p className="mt-6 text-sm text-slate-600">{t('login.lead')}</p>
          <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
            <label className="block text-sm font-medium text-slate-700">
              {t('login.email')}
              <input
                name="email"
                type="email"
                autoComplete="username"
                required
                className={inputClass}
              />
            </label>
            <label className="block text-sm font-medium text-slate-700">
              {t('login.password')}
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                className={inputClass}
              />
            </label>
            {error !== null && (
              <div className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                <p role="alert" data-testid="login-error">
                  {error}
                </p>
                {limited && methods.includes('emailLink') && (
                  <button
                    type="button"
                    className="mt-2 font-medium text-red-900 underline underline-offset-4"
                    onClick={() => setChosen('emailLink')}
                  >
                    {t('login.useEmailLink')}
                  </button>
                )}
              </div>
            )}
            <Button
              type="submit"
              variant="primary"
              className="w-full"
              disabled={pending}
              data-testid="login-submit"
            >
              {pending ? t('login.submitting') : t('login.submit')}
            </Button>
          </form>
          <p className="mt-4 text-center text-sm">
            <button
              type="button"
              className="text-teal-700 underline-offset-4 hover:underline"
              onClick={() => setForgot(true)}
              data-testid="forgot-password"
            >
              {t('login.forgotPassword')}
            </button>
          </p>
        </>
      )}
      {/* A passkey signs in whatever method is chosen above: no address typed. */}
      <PasskeySignInButton onSignedIn={signedIn} />
      {/* The slot for social sign-in: shown when the server names an OpenID provider. */}
      <OidcButton displayName={offered?.oidc?.displayName} />
      <p className="mt-6 text-center text-sm">
        <AppLink to={DEMO_PREFIX} className="text-teal-700 underline-offset-4 hover:underline">
          {t('login.tryDemo')}
        </AppLink>
      </p>
    </SignInCard>
  );
}
