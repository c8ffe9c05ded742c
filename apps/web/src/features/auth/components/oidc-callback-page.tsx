import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge } from '@wearable/domain';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { exchangeOidcCode } from '../api/sign-in-factors-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { SignInCard } from './sign-in-card';
import { SecondFactorStep } from './second-factor-step';

const KNOWN_REFUSALS = [
  'OIDC_STATE_INVALID',
  'OIDC_CANCELLED',
  'OIDC_FAILED',
  'OIDC_EMAIL_NOT_VERIFIED',
  'OIDC_ACCOUNT_NOT_FOUND',
  'INVALID_EXCHANGE_CODE',
];

const readFragment = () => new URLSearchParams(window.location.hash.slice(1));

/**
 * /login/oidc: where the server sends the browser back from the provider, with a one-time code
 * (or the refusal) in the fragment; the code is swapped for the tokens here.
 */
export function OidcCallbackPage() {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const [refusal, setRefusal] = useState<string | null>(() =>
    readFragment().has('code') ? null : (readFragment().get('error') ?? 'OIDC_FAILED'),
  );
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit (StrictMode runs effects twice): the code is single-use.
    if (started.current) return;
    started.current = true;
    const code = readFragment().get('code');
    // The code is spent below: keep it out of the address bar and history.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (code === null) return;
    void exchangeOidcCode({ code }).then(async (result) => {
      if (!result.ok) return setRefusal(result.data?.code ?? 'OIDC_FAILED');
      if ('mfaRequired' in result.data) return setChallenge(result.data);
      if (!(await finish(result.data))) setRefusal('OIDC_FAILED');
    });
  }, [finish]);

  const known = refusal !== null && KNOWN_REFUSALS.includes(refusal) ? refusal : 'OIDC_FAILED';
  return (
    <SignInCard title={t('oidc.title')}>
      <div className="mt-6">
        {challenge !== null ? (
          <SecondFactorStep
            challenge={challenge}
            onRestart={() => setRefusal('INVALID_EXCHANGE_CODE')}
          />
        ) : refusal !== null ? (
          <p
            role="alert"
            data-testid="oidc-refusal"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {t(`oidc.errors.${known}`)}
          </p>
        ) : (
          <Spinner label={t('oidc.signingIn')} />
        )}
      </div>
      <p className="mt-6 text-center text-sm">
        <AppLink
          to={paths.login.build()}
          className="text-teal-700 underline-offset-4 hover:underline"
        >
          {t('oidc.backToLogin')}
        </AppLink>
      </p>
    </SignInCard>
  );
}
