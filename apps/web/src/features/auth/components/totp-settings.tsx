import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TotpSetupResponse, TotpStatus } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { fetchTotpStatus, startTotpSetup, turnTotpOff, turnTotpOn } from '../api/totp-settings-api';
import { TotpCodeField, TotpQrCode } from './totp-code-field';

const KNOWN_ERRORS = [
  'INVALID_TOTP_CODE',
  'TOO_MANY_ATTEMPTS',
  'VALIDATION_FAILED',
  'TOTP_REQUIRED_BY_ORGANIZATION',
];

/** The signed-in person's two-step sign-in: turn it on (scan, confirm with a code) or off (with a code). */
export function TotpSettings() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TotpStatus | null>(null);
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    void fetchTotpStatus().then((result) => {
      if (result.ok) setStatus(result.data);
    });
  }, []);

  const fail = (code: string | undefined) =>
    setError(
      t(
        code !== undefined && KNOWN_ERRORS.includes(code)
          ? `totp.errors.${code}`
          : 'totp.errors.generic',
      ),
    );

  async function start() {
    setError(null);
    const result = await startTotpSetup();
    if (result.ok) setSetup(result.data);
    else fail(result.data?.code);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('code');
    const code = typeof value === 'string' ? value.trim() : '';
    setPending(true);
    setError(null);
    const result = await (turningOff ? turnTotpOff({ code }) : turnTotpOn({ code }));
    setPending(false);
    if (!result.ok) return fail(result.data?.code);
    setStatus(result.data);
    setSetup(null);
    setTurningOff(false);
  }

  if (status === null) return null;
  const asking = setup !== null || turningOff;
  return (
    <section
      aria-labelledby="totp-heading"
      data-testid="totp-settings"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="totp-heading" className="text-base font-semibold text-slate-900">
        {t('totp.settingsTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="totp-state">
        {t(status.enabled ? 'totp.on' : 'totp.off')}
        {status.requiredByOrganization ? ` ${t('totp.required')}` : ''}
      </p>
      {asking ? (
        <form
          className="mt-4 max-w-sm space-y-4"
          onSubmit={(event) => void submit(event)}
          noValidate
        >
          {setup !== null && <TotpQrCode qrCode={setup.qrCode} secret={setup.secret} />}
          <TotpCodeField />
          {error !== null && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              variant={turningOff ? 'destructive' : 'primary'}
              disabled={pending}
              data-testid="totp-confirm"
            >
              {t(turningOff ? 'totp.confirmOff' : 'totp.confirmOn')}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => (setSetup(null), setTurningOff(false), setError(null))}
            >
              {t('totp.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-4">
          {error !== null && (
            <p role="alert" className="mb-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          {status.enabled ? (
            !status.requiredByOrganization && (
              <Button
                type="button"
                variant="outline"
                onClick={() => setTurningOff(true)}
                data-testid="totp-turn-off"
              >
                {t('totp.turnOff')}
              </Button>
            )
          ) : (
            <Button
              type="button"
              variant="primary"
              onClick={() => void start()}
              data-testid="totp-turn-on"
            >
              {t('totp.turnOn')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
