import { useTranslation } from 'react-i18next';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600';

/** The 6-digit code of an authenticator app, as phones offer it (one-time-code autofill). */
export function TotpCodeField({ name = 'code' }: { name?: string }) {
  const { t } = useTranslation();
  return (
    <label className="block text-sm font-medium text-slate-700">
      {t('totp.code')}
      <input
        name={name}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\d{6}"
        maxLength={6}
        required
        data-testid="totp-code"
        className={inputClass}
      />
    </label>
  );
}

/** The QR code to scan, and the secret for apps that cannot scan. */
export function TotpQrCode({ qrCode, secret }: { qrCode: string; secret: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2 text-sm text-slate-700">
      <p>{t('totp.scan')}</p>
      <img src={qrCode} alt={t('totp.qrAlt')} className="mx-auto h-44 w-44" data-testid="totp-qr" />
      <p>
        {t('totp.manual')}{' '}
        <code className="break-all rounded bg-slate-100 px-1" data-testid="totp-secret">
          {secret}
        </code>
      </p>
    </div>
  );
}
