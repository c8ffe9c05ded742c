import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isE164PhoneNumber, isSignInCode, type SignInResult } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { phoneSignIn, requestPhoneCode } from '../api/sign-in-methods-api';
import { formText, inputClass, localeOf } from './sign-in-form-parts';

const KNOWN_ERRORS = ['INVALID_CODE', 'TOO_MANY_ATTEMPTS', 'VALIDATION_FAILED'];

/** Two steps: the verified phone number gets an SMS code; the code signs in. */
/** `onSignedIn` opens the app (false: it could not, the form says so). */
export function PhoneSignInForm({
  onSignedIn,
}: {
  onSignedIn: (result: SignInResult) => Promise<boolean>;
}) {
  const { t, i18n } = useTranslation();
  const [phoneNumber, setPhoneNumber] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const failed = (code: string | undefined) =>
    setError(
      t(
        KNOWN_ERRORS.includes(code ?? '')
          ? `phoneSignIn.errors.${code}`
          : 'phoneSignIn.errors.generic',
      ),
    );

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = formText(event.currentTarget, 'phoneNumber').replace(/[\s-]/g, '');
    setError(null);
    // The rules of phoneCodeBody and phoneSignInBody, without loading the schemas on the login page.
    if (!isE164PhoneNumber(number)) return setError(t('phoneSignIn.errors.badPhone'));
    setPending(true);
    const result = await requestPhoneCode({ phoneNumber: number, locale: localeOf(i18n.language) });
    setPending(false);
    if (!result.ok) return failed(result.data?.code);
    setPhoneNumber(number);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phoneNumber === null) return;
    const code = formText(event.currentTarget, 'code').trim();
    setError(null);
    if (!isSignInCode(code)) return setError(t('phoneSignIn.errors.badCode'));
    setPending(true);
    const result = await phoneSignIn({ phoneNumber, code });
    if (!result.ok) {
      setPending(false);
      return failed(result.data?.code);
    }
    if (!(await onSignedIn(result.data))) failed('generic');
    setPending(false);
  }

  const errorLine = error !== null && (
    <p
      role="alert"
      data-testid="phone-error"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {error}
    </p>
  );

  if (phoneNumber === null) {
    return (
      <form className="space-y-4" onSubmit={(event) => void sendCode(event)} noValidate>
        <p className="text-sm text-slate-600">{t('phoneSignIn.lead')}</p>
        <label className="block text-sm font-medium text-slate-700">
          {t('phoneSignIn.phoneNumber')}
          <input
            name="phoneNumber"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            required
            className={inputClass}
          />
        </label>
        {errorLine}
        <Button
          type="submit"
          variant="primary"
          className="w-full"
          disabled={pending}
          data-testid="phone-send-code"
        >
          {pending ? t('phoneSignIn.sending') : t('phoneSignIn.sendCode')}
        </Button>
      </form>
    );
  }
  return (
    <form className="space-y-4" onSubmit={(event) => void submitCode(event)} noValidate>
      <p role="status" className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900">
        {t('phoneSignIn.sent', { phoneNumber })}
      </p>
      <label className="block text-sm font-medium text-slate-700">
        {t('phoneSignIn.code')}
        <input
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          maxLength={6}
          required
          // The field appears after the number was sent: the keyboard continues here.
          autoFocus
          className={inputClass}
        />
      </label>
      {errorLine}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={pending}
        data-testid="phone-submit"
      >
        {pending ? t('phoneSignIn.submitting') : t('phoneSignIn.submit')}
      </Button>
      <Button variant="link" className="w-full" onClick={() => setPhoneNumber(null)}>
        {t('phoneSignIn.otherNumber')}
      </Button>
    </form>
  );
}
