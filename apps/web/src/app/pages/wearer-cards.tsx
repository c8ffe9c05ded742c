import type { WearerListItem, WearerSummary } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PersonName } from '../../components/ui/person-name';
import { paths } from '../../config/paths';
import { AlertBadge } from '../../features/alerts';
import { ConnectionState, LastSeen, useWearerStateText, WornState } from '../../features/live';
import { AppLink } from '../../lib/app-path';

interface WearerCardsProps {
  wearers: readonly WearerListItem[];
  states: ReadonlyMap<string, WearerSummary>;
  now: number;
  /** The list's name (the page's heading). */
  label?: string;
}

/**
 * Phones: one card per wearer. Who it is and their open alerts come first, then heart rate, wear and connection,
 * so a night-shift worker sees whose SOS it is without scrolling sideways. The card's name is a 44 px link.
 */
export function WearerCards({ wearers, states, now, label }: WearerCardsProps) {
  const { t } = useTranslation(['common', 'live']);
  const text = useWearerStateText();
  const none = t('common.none');
  return (
    <ul
      aria-label={label ?? t('pages.devices')}
      data-testid="wearer-table"
      className="flex flex-col gap-3"
    >
      {wearers.map((wearer) => {
        const state = states.get(wearer.uid);
        const alerts = state?.openAlerts ?? [];
        return (
          <li
            key={wearer.uid}
            data-testid="wearer-row"
            data-uid={wearer.uid}
            className="rounded-lg border border-slate-200 bg-white p-3"
          >
            <AppLink
              to={paths.device.detail.build({ clientId: wearer.clientId, uid: wearer.uid })}
              className={`flex min-h-11 items-center rounded-md text-base font-semibold text-teal-800 hover:underline ${focusRing}`}
            >
              <PersonName name={wearer.name} />
            </AppLink>
            <p className="text-sm text-slate-700">{wearer.groupName ?? none}</p>
            <div data-testid="live-alerts" className="mt-2">
              {alerts.length > 0 ? (
                <ul className="flex flex-wrap gap-1" aria-label={t('live:columns.alerts')}>
                  {alerts.map((alert) => (
                    <li key={alert.id}>
                      <AlertBadge type={alert.type} level={alert.level} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-600">{t('live:values.noAlerts')}</p>
              )}
            </div>
            <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-xs text-slate-600">{t('live:columns.heartRate')}</dt>
                <dd
                  className="font-medium tabular-nums text-slate-900"
                  data-testid="live-heart-rate"
                >
                  {state ? text.heartRate(state.heartRate) : none}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">{t('live:columns.worn')}</dt>
                <dd>{state ? <WornState worn={state.worn} /> : none}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">{t('live:columns.connection')}</dt>
                <dd>{state ? <ConnectionState connection={state.connection} /> : none}</dd>
              </div>
            </dl>
            {state && (
              <p className="mt-1 text-xs text-slate-600">
                {t('live:columns.lastSeen')}: <LastSeen at={state.lastSeenAt} now={now} />
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
