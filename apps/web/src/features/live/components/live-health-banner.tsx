import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { useIngestionStatus } from '../api/ingestion-status';
import { LIVE_DOWN_BANNER_MS, useLiveDownSince } from '../hooks/live-status';
import { formatRelative, useNow } from './relative-time';

/**
 * The pipe itself, watched from the console (issue 34 item 6): a band under the header when the
 * live stream has been down for LIVE_DOWN_BANNER_MS (role=alert: what is on screen may be old), and
 * when the server says the organisation's data has stopped arriving or some of its gateways are
 * silent (role=status: each gateway with how many wearers it serves and since when).
 */
export function LiveHealthBanner({ clientId }: { clientId: string | null }) {
  const { t, i18n } = useTranslation('live');
  const locale = i18n.resolvedLanguage ?? 'ja';
  const now = useNow(5_000);
  const downSince = useLiveDownSince();
  const ingestion = useIngestionStatus(clientId).data;
  const streamDown = downSince !== null && now - downSince >= LIVE_DOWN_BANNER_MS;
  const stoppedSince = ingestion?.stoppedSince ?? null;
  const silent = ingestion?.silentGateways ?? [];
  const ago = (at: string | number) =>
    formatRelative(now - (typeof at === 'number' ? at : Date.parse(at)), locale);
  return (
    <>
      {streamDown && (
        <div
          role="alert"
          data-testid="live-down-banner"
          className="border-t border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950"
        >
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1">
            <p className="font-semibold">{t('health.streamDown', { since: ago(downSince) })}</p>
            <p>{t('health.streamDownHint')}</p>
            <button
              type="button"
              onClick={() => window.location.reload()}
              className={`min-h-11 rounded-md border border-amber-700 bg-white px-3 font-medium text-amber-950 hover:bg-amber-100 ${focusRing}`}
            >
              {t('health.reload')}
            </button>
          </div>
        </div>
      )}
      {(stoppedSince !== null || silent.length > 0) && (
        <div
          role="status"
          data-testid="ingestion-banner"
          className="border-t border-red-300 bg-red-50 px-4 py-2 text-sm text-red-950"
        >
          <div className="mx-auto max-w-6xl">
            <p className="font-semibold">
              {stoppedSince !== null
                ? t('health.ingestionStopped', { since: ago(stoppedSince) })
                : t('health.gatewaysSilent', { count: silent.length })}
            </p>
            {silent.length > 0 && (
              <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                {silent.map((g) => (
                  <li key={g.id}>
                    {t('health.silentGateway', {
                      name: g.gatewayName,
                      count: g.wearerCount,
                      since: ago(g.lastHeardAt),
                    })}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </>
  );
}
