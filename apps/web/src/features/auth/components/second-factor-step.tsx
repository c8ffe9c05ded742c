import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { passkeysSupported } from '../lib/passkey-ceremony';
import { PasskeyStep } from './passkey-step';
import { TotpStep } from './totp-step';

/**
 * The second step of a sign-in, by the challenge's code: a TOTP code (or a passkey, when the account has
 * one), a passkey, or the enrolment the organisation requires (TOTP only, or a passkey or TOTP).
 */
export function SecondFactorStep({
  challenge,
  onRestart,
}: {
  challenge: MfaChallenge;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const [expired, setExpired] = useState(false);
  // Enrolling where either will do: the passkey first, the authenticator app on request.
  const [withApp, setWithApp] = useState(!passkeysSupported());
  const hasPasskey = challenge.factors.includes('passkey') && passkeysSupported();

  if (expired) {
    return (
      <div className="space-y-4" data-testid="totp-step">
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('totp.errors.INVALID_CHALLENGE')}
        </p>
        <Button type="button" variant="primary" className="w-full" onClick={onRestart}>
          {t('totp.restart')}
        </Button>
      </div>
    );
  }
  const expire = () => setExpired(true);

  switch (challenge.code) {
    case 'TOTP_ENROLMENT_REQUIRED':
      return <TotpStep challenge={challenge} onRestart={onRestart} />;
    case 'TOTP_REQUIRED':
      return (
        <div className="space-y-4">
          <TotpStep challenge={challenge} onRestart={onRestart} />
          {hasPasskey && (
            <>
              <p className="text-center text-sm text-slate-600">{t('passkeys.or')}</p>
              <PasskeyStep challenge={challenge} mode="verify" onExpired={expire} />
            </>
          )}
        </div>
      );
    case 'PASSKEY_REQUIRED':
      return (
        <div className="space-y-4">
          <h2 className="text-base font-semibold text-slate-900">{t('totp.stepTitle')}</h2>
          <p className="text-sm text-slate-600">{t('passkeys.stepLead')}</p>
          <PasskeyStep challenge={challenge} mode="verify" onExpired={expire} />
        </div>
      );
    case 'SECOND_FACTOR_ENROLMENT_REQUIRED':
      return withApp ? (
        <TotpStep challenge={challenge} onRestart={onRestart} />
      ) : (
        <div className="space-y-4">
          <h2 className="text-base font-semibold text-slate-900">{t('passkeys.enrolTitle')}</h2>
          <p className="text-sm text-slate-600">{t('passkeys.enrolLead')}</p>
          <PasskeyStep challenge={challenge} mode="enrol" onExpired={expire} />
          <Button
            type="button"
            variant="link"
            className="w-full"
            onClick={() => setWithApp(true)}
            data-testid="enrol-with-app"
          >
            {t('passkeys.enrolWithApp')}
          </Button>
        </div>
      );
  }
}
