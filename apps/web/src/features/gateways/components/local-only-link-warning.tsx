import { useTranslation } from 'react-i18next';

/**
 * Said in every dialog that hands a link, QR code or host to another device when the server's PUBLIC_URL names
 * its own machine (the default http://localhost:…): on the phone or gateway that follows it, "localhost" is that
 * device itself, so nothing would connect (issue 35).
 */
export function LocalOnlyLinkWarning({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="note"
      className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm break-words text-amber-950"
      data-testid="local-only-link-warning"
    >
      <p className="font-semibold">
        {t('gateways.localOnlyLink.title', { host: new URL(url).host })}
      </p>
      <p className="mt-1">{t('gateways.localOnlyLink.body')}</p>
    </div>
  );
}
