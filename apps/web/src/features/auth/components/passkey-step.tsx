import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import {
  enrolPasskey,
  passkeyEnrolmentOptions,
  passkeyStepOptions,
  verifyPasskeyStep,
} from '../api/sign-in-factors-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { ceremonyErrorKey, createPasskey, getPasskey } from '../lib/passkey-ceremony';
import { inputClass } from './sign-in-form-parts';

const KNOWN_ERRORS = [
  'INVALID_CHALLENGE',
  'PASSKEY_CHALLENGE_INVALID',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_UNKNOWN',
  'PASSKEY_ALREADY_REGISTERED',
  'TOO_MANY_ATTEMPTS',
];

/**
 * A sign-in's second step with a passkey: `verify` answers it with one of the account's passkeys,
 * `enrol` adds one (under a name) when the organisation requires a second factor, and signs in.
 */
export function PasskeyStep({
  challenge,
  mode,
  onExpired,
}: {
  challenge: MfaChallenge;
  mode: 'verify' | 'enrol';
  onExpired: () => void;
}) {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const nameId = useId();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const fail = (code: string) => {
    if (code === 'INVALID_CHALLENGE') return onExpired();
    setError(t(KNOWN_ERRORS.includes(code) ? `passkeys.errors.${code}` : 'login.errors.generic'));
  };

  async function run(name: string) {
    setPending(true);
    setError(null);
    try {
      const body = { challenge: challenge.challenge };
      if (mode === 'verify') {
        const options = await passkeyStepOptions(body);
        if (!options.ok) return fail(options.data?.code ?? '');
        let response;
        try {
          response = await getPasskey(options.data);
        } catch (err) {
          return setError(t(ceremonyErrorKey(err)));
        }
        const result = await verifyPasskeyStep({ ...body, response });
        if (!result.ok) return fail(result.data?.code ?? '');
        if (!(await finish(result.data))) setError(t('login.errors.generic'));
        return;
      }
      const options = await passkeyEnrolmentOptions(body);
      if (!options.ok) return fail(options.data?.code ?? '');
      let response;
      try {
        response = await createPasskey(options.data);
      } catch (err) {
        return setError(t(ceremonyErrorKey(err)));
      }
      const result = await enrolPasskey({ ...body, name, response });
      if (!result.ok) return fail(result.data?.code ?? '');
      if (!(await finish(result.data))) setError(t('login.errors.generic'));
    } finally {
      setPending(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('name');
    const name = typeof value === 'string' ? value.trim() : '';
    if (mode === 'enrol' && name === '') return setError(t('passkeys.errors.nameMissing'));
    void run(name);
  }

  return (
    <form className="space-y-3" onSubmit={submit} noValidate data-testid="passkey-step">
      {mode === 'enrol' && (
        <label htmlFor={nameId} className="block text-sm font-medium text-slate-700">
          {t('passkeys.name')}
          <input
            id={nameId}
            name="name"
            type="text"
            maxLength={60}
            required
            placeholder={t('passkeys.namePlaceholder')}
            className={inputClass}
          />
        </label>
      )}
      {error !== null && (
        <p
          role="alert"
          data-testid="passkey-step-error"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <Button
        type="submit"
        variant={mode === 'enrol' ? 'primary' : 'outline'}
        className="w-full"
        disabled={pending}
        data-testid="passkey-step-submit"
      >
        {pending
          ? t('login.submitting')
          : t(mode === 'enrol' ? 'passkeys.enrolSubmit' : 'passkeys.useForStep')}
      </Button>
    </form>
  );
}
