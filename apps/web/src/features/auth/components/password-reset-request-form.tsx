import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isEmailAddress } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { requestPasswordReset } from '../api/sign-in-methods-api';
import { formText, inputClass, localeOf } from './sign-in-form-parts';

const KNOWN_ERRORS = ['TOO_MANY_ATTEMPTS', 'VALIDATION_FAILED'];

/**
 * "パスワードを忘れた場合": asks for a reset link by mail (the answer is the same whether or not the address is
 * registered); `onBack` returns to the sign-in form.
 */
export function PasswordResetRequestForm({ onBack }: { onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(event.currentTarget, 'email').trim();
    setError(null);
    setSentTo(null);
    if (!isEmailAddress(email)) {
      setError(t('passwordReset.errors.VALIDATION_FAILED'));
      return;
    }
    setPending(true);
    const result = await requestPasswordReset({ email, locale: localeOf(i18n.language) });
    setPending(false);
    if (!result.ok) {
      const code = result.data?.code ?? '';
      setError(
        t(
          KNOWN_ERRORS.includes(code)
            ? `passwordReset.errors.${code}`
            : 'passwordReset.errors.generic',
        ),
      );
      return;
    }
    setSentTo(email);
  }

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="password-reset-heading"
      aria-describedby="password-reset-lead"
      data-testid="password-reset-request"
    >
      <h2 id="password-reset-heading" className="text-base font-semibold text-slate-900">
        {t('passwordReset.requestTitle')}
      </h2>
      <p id="password-reset-lead" className="text-sm text-slate-600">
        {t('passwordReset.lead')}
      </p>
      <label className="block text-sm font-medium text-slate-700">
        {t('login.email')}
        <input name="email" type="email" autoComplete="username" required className={inputClass} />
      </label>
      <div aria-live="polite">
        {sentTo !== null && (
          <p
            role="status"
            data-testid="password-reset-sent"
            className="rounded-md bg-teal-50 px-3 py-2 text-sm break-words text-teal-900"
          >
            {t('passwordReset.sent', { email: sentTo })}
          </p>
        )}
      </div>
      {error !== null && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={pending}
        data-testid="password-reset-submit"
      >
        {pending ? t('passwordReset.sending') : t('passwordReset.submit')}
      </Button>
      <p className="text-center text-sm">
        <button
          type="button"
          className="text-teal-700 underline-offset-4 hover:underline"
          onClick={onBack}
        >
          {t('passwordReset.back')}
        </button>
      </p>
    </form>
  );
}
