import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenPair } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { passkeySignInOptions, signInWithPasskey } from '../api/sign-in-factors-api';
import { ceremonyErrorKey, getPasskey, passkeysSupported } from '../lib/passkey-ceremony';

const KNOWN_ERRORS = [
  'PASSKEY_CHALLENGE_INVALID',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_UNKNOWN',
];

/** /login: sign in with a passkey, no address typed (the passkey says whose it is). */
export function PasskeySignInButton({
  onSignedIn,
}: {
  onSignedIn: (pair: TokenPair) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!passkeysSupported()) return null;

  async function start() {
    setError(null);
    setPending(true);
    try {
      const options = await passkeySignInOptions();
      if (!options.ok) return setError(t('login.errors.generic'));
      let response;
      try {
        response = await getPasskey(options.data);
      } catch (err) {
        return setError(t(ceremonyErrorKey(err)));
      }
      const result = await signInWithPasskey({ response });
      if (!result.ok) {
        const code = result.data?.code ?? '';
        return setError(
          t(KNOWN_ERRORS.includes(code) ? `passkeys.errors.${code}` : 'login.errors.generic'),
        );
      }
      if (!(await onSignedIn(result.data))) setError(t('login.errors.generic'));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="mt-4">
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={pending}
        onClick={() => void start()}
        data-testid="passkey-sign-in"
      >
        {pending ? t('login.submitting') : t('passkeys.signIn')}
      </Button>
      {error !== null && (
        <p
          role="alert"
          data-testid="passkey-sign-in-error"
          className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
    </div>
  );
}
