import { MIN_PASSWORD_LENGTH } from '@wearable/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { session } from '../../../lib/session';
import { resetPassword } from '../api/sign-in-methods-api';
import { SignInCard } from './sign-in-card';
import { formText, inputClass } from './sign-in-form-parts';

const LINK_ERRORS = ['LINK_USED', 'LINK_EXPIRED', 'LINK_UNKNOWN', 'LINK_OTHER_ADDRESS'];

/**
 * /reset-password#reset=…: the link of "パスワードを忘れた場合". Outside the guard (signed out, or on another
 * device); the token is read once and removed from the address bar. A new password ends every session of the
 * account, this browser's included, so the person signs in again with it.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [token] = useState(() => /^#reset=([\w-]+)$/.exec(window.location.hash)?.[1] ?? null);
  const [failure, setFailure] = useState<string | null>(token === null ? 'LINK_UNKNOWN' : null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (token === null) return;
    const password = formText(event.currentTarget, 'newPassword');
    const again = formText(event.currentTarget, 'newPasswordAgain');
    setFieldError(null);
    if (password.length < MIN_PASSWORD_LENGTH) {
      setFieldError(t('passwordReset.errors.tooShort', { count: MIN_PASSWORD_LENGTH }));
      return;
    }
    if (password !== again) {
      setFieldError(t('passwordReset.errors.mismatch'));
      return;
    }
    setPending(true);
    const result = await resetPassword({ token, newPassword: password });
    setPending(false);
    if (!result.ok) {
      const code = result.data?.code ?? '';
      if (LINK_ERRORS.includes(code)) setFailure(code);
      else setFieldError(t('passwordReset.errors.generic'));
      return;
    }
    // This browser's session, if any, ended with the others.
    if (session.get().hasToken) session.end();
    setDone(result.data.sessionsEnded);
  }

  const toLogin = (
    <a
      href={paths.login.build()}
      className="mt-6 inline-block text-sm font-medium text-teal-700 underline-offset-4 hover:underline"
      data-testid="reset-to-login"
    >
      {failure === null ? t('passwordReset.toLogin') : t('passwordReset.requestAgain')}
    </a>
  );
  if (failure !== null) {
    return (
      <SignInCard title={t(`passwordReset.linkErrors.${failure}.title`)}>
        <p
          role="alert"
          data-testid="reset-error"
          data-code={failure}
          className="mt-2 text-sm text-slate-700"
        >
          {t(`passwordReset.linkErrors.${failure}.body`)}
        </p>
        {toLogin}
      </SignInCard>
    );
  }
  if (done !== null) {
    return (
      <SignInCard title={t('passwordReset.doneTitle')}>
        <p role="status" data-testid="reset-done" className="mt-2 text-sm text-slate-700">
          {t('passwordReset.done', { count: done })}
        </p>
        {toLogin}
      </SignInCard>
    );
  }
  return (
    <SignInCard title={t('passwordReset.title')}>
      <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <p id="reset-lead" className="text-sm text-slate-600">
          {t('passwordReset.newLead', { count: MIN_PASSWORD_LENGTH })}
        </p>
        <label className="block text-sm font-medium text-slate-700">
          {t('passwordReset.newPassword')}
          <input
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            aria-describedby="reset-lead"
            className={inputClass}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('passwordReset.newPasswordAgain')}
          <input
            name="newPasswordAgain"
            type="password"
            autoComplete="new-password"
            required
            className={inputClass}
          />
        </label>
        {fieldError !== null && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {fieldError}
          </p>
        )}
        <Button
          type="submit"
          variant="primary"
          className="w-full"
          disabled={pending}
          data-testid="reset-submit"
        >
          {pending ? t('passwordReset.saving') : t('passwordReset.save')}
        </Button>
      </form>
    </SignInCard>
  );
}
