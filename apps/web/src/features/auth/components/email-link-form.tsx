import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isEmailAddress } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { storeEmailLinkAddress } from '../../../lib/storage';
import { requestEmailLink } from '../api/sign-in-methods-api';
import { formText, inputClass, localeOf } from './sign-in-form-parts';

const KNOWN_ERRORS = ['TOO_MANY_ATTEMPTS', 'VALIDATION_FAILED'];

/** Asks for a sign-in link by mail; the answer is the same whether or not the address is registered. */
export function EmailLinkForm() {
  const { t, i18n } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(event.currentTarget, 'email').trim();
    setError(null);
    setSentTo(null);
    // The same rule as the server's (emailLinkBody), so a typo is caught before a round trip.
    if (!isEmailAddress(email)) {
      setError(t('signInLink.errors.VALIDATION_FAILED'));
      return;
    }
    setPending(true);
    const result = await requestEmailLink({ email, locale: localeOf(i18n.language) });
    setPending(false);
    if (!result.ok) {
      const code = result.data?.code ?? '';
      setError(
        t(KNOWN_ERRORS.includes(code) ? `signInLink.errors.${code}` : 'signInLink.errors.generic'),
      );
      return;
    }
    storeEmailLinkAddress(email.toLowerCase());
    setSentTo(email);
  }

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-describedby="email-link-lead"
    >
      <p id="email-link-lead" className="text-sm text-slate-600">
        {t('signInLink.lead')}
      </p>
      <label className="block text-sm font-medium text-slate-700">
        {t('login.email')}
        <input name="email" type="email" autoComplete="username" required className={inputClass} />
      </label>
      <div aria-live="polite">
        {sentTo !== null && (
          <p
            role="status"
            data-testid="email-link-sent"
            className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900"
          >
            {t('signInLink.sent', { email: sentTo })}
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
        data-testid="email-link-submit"
      >
        {pending ? t('signInLink.sending') : t('signInLink.submit')}
      </Button>
    </form>
  );
}
