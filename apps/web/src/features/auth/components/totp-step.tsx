import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MfaChallenge, TotpSetupResponse } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { enrolTotp, verifyTotp } from '../api/sign-in-factors-api';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { TotpCodeField, TotpQrCode } from './totp-code-field';

const KNOWN_ERRORS = [
  'INVALID_TOTP_CODE',
  'INVALID_CHALLENGE',
  'TOO_MANY_ATTEMPTS',
  'VALIDATION_FAILED',
];

/**
 * The second step of a sign-in: a code from the authenticator app, after enrolling first when
 * the organisation requires TOTP and the account has none (TOTP_ENROLMENT_REQUIRED).
 */
export function TotpStep({
  challenge,
  onRestart,
}: {
  challenge: MfaChallenge;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const finish = useFinishSignIn();
  const enrolling =
    challenge.code === 'TOTP_ENROLMENT_REQUIRED' ||
    challenge.code === 'SECOND_FACTOR_ENROLMENT_REQUIRED';
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!enrolling) return;
    void enrolTotp({ challenge: challenge.challenge }).then((result) => {
      if (result.ok) setSetup(result.data);
      else setExpired(true);
    });
  }, [enrolling, challenge.challenge]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get('code');
    setPending(true);
    setError(null);
    const result = await verifyTotp({
      challenge: challenge.challenge,
      code: typeof code === 'string' ? code.trim() : '',
    });
    if (result.ok && (await finish(result.data))) return;
    const errorCode = result.ok ? '' : (result.data?.code ?? '');
    if (errorCode === 'INVALID_CHALLENGE') setExpired(true);
    setError(
      t(KNOWN_ERRORS.includes(errorCode) ? `totp.errors.${errorCode}` : 'login.errors.generic'),
    );
    setPending(false);
  }

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
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="totp-step"
    >
      <h2 className="text-base font-semibold text-slate-900">
        {t(enrolling ? 'totp.enrolTitle' : 'totp.stepTitle')}
      </h2>
      <p className="text-sm text-slate-600">{t(enrolling ? 'totp.enrolLead' : 'totp.stepLead')}</p>
      {setup !== null && <TotpQrCode qrCode={setup.qrCode} secret={setup.secret} />}
      <TotpCodeField />
      {error !== null && (
        <p
          role="alert"
          data-testid="totp-error"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={pending || (enrolling && setup === null)}
        data-testid="totp-submit"
      >
        {pending ? t('login.submitting') : t('totp.submit')}
      </Button>
    </form>
  );
}
