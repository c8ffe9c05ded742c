import type { DeviceSummary } from '@wearable/domain';
import { memo, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PersonName } from '../../components/ui/person-name';
import { paths } from '../../config/paths';
import { AlertBadge } from '../../features/alerts';
import {
  ConnectionState,
  LastSeen,
  LatestValue,
  staleAgeMs,
  useWearerStateText,
  type WearerStateText,
  WornState,
} from '../../features/live';
import { AppLink } from '../../lib/app-path';
import { useWindowRows } from '../../lib/use-window-rows';

/** A card's height before it is measured, the 12 px gap below it included. */
const CARD_ESTIMATE = 190;

/** The card's own words beside the wearer state's (one object for the whole list). */
interface CardWords {
  none: string;
  alerts: string;
  noAlerts: string;
  heartRate: string;
  worn: string;
  connection: string;
  lastSeen: string;
}

interface WearerCardsProps {
  wearers: readonly DeviceSummary[];
  now: number;
  /** The list's name (the page's heading). */
  label?: string;
}

/**
 * Phones: one card per wearer, drawn a screen at a time. Who it is and their open alerts come first,
 * then heart rate, wear and connection, so a night-shift worker sees whose SOS it is without
 * scrolling sideways. The card's name is a 44 px link. Each drawn card tells a screen reader its
 * place in the whole list (aria-setsize, aria-posinset).
 */
export function WearerCards({ wearers, now, label }: WearerCardsProps) {
  const { t } = useTranslation(['common', 'live']);
  const listRef = useRef<HTMLUListElement>(null);
  const rows = useWindowRows(listRef, wearers.length, CARD_ESTIMATE);
  // The words of every card, made once here (scrolling mounts cards all the time).
  const text = useWearerStateText();
  const words = useMemo(
    () => ({
      none: t('common.none'),
      alerts: t('live:columns.alerts'),
      noAlerts: t('live:values.noAlerts'),
      heartRate: t('live:columns.heartRate'),
      worn: t('live:columns.worn'),
      connection: t('live:columns.connection'),
      lastSeen: t('live:columns.lastSeen'),
    }),
    [t],
  );
  return (
    <ul
      ref={listRef}
      aria-label={label ?? t('pages.devices')}
      data-testid="wearer-table"
      className="flex flex-col"
      style={{ paddingTop: rows.before, paddingBottom: rows.after }}
    >
      {rows.items.map((item) => {
        const wearer = wearers[item.index]!;
        return (
          <WearerCard
            key={wearer.uid}
            wearer={wearer}
            index={item.index}
            total={wearers.length}
            now={now}
            measure={rows.measure}
            text={text}
            words={words}
          />
        );
      })}
    </ul>
  );
}

const WearerCard = memo(function WearerCard({
  wearer,
  index,
  total,
  now,
  measure,
  text,
  words,
}: {
  wearer: DeviceSummary;
  index: number;
  total: number;
  now: number;
  measure: (el: Element | null) => void;
  text: WearerStateText;
  words: CardWords;
}) {
  const alerts = wearer.openAlerts;
  const staleMs = staleAgeMs(wearer, now);
  return (
    <li
      ref={measure}
      data-index={index}
      aria-setsize={total}
      aria-posinset={index + 1}
      data-testid="wearer-row"
      data-uid={wearer.uid}
      className="pb-3"
    >
      <div className="rounded-lg border border-slate-200 bg-white p-3">
        <AppLink
          to={paths.device.detail.build({ clientId: wearer.clientId, uid: wearer.uid })}
          className={`flex min-h-11 items-center rounded-md text-base font-semibold text-teal-800 hover:underline ${focusRing}`}
        >
          <PersonName name={wearer.name} />
        </AppLink>
        <p className="text-sm text-slate-700">{wearer.groupName ?? words.none}</p>
        <div data-testid="live-alerts" className="mt-2">
          {alerts.length > 0 ? (
            <ul className="flex flex-wrap gap-1" aria-label={words.alerts}>
              {alerts.map((alert) => (
                <li key={alert.id}>
                  <AlertBadge type={alert.type} level={alert.level} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{words.noAlerts}</p>
          )}
        </div>
        <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-xs text-slate-600">{words.heartRate}</dt>
            <dd className="font-medium tabular-nums text-slate-900" data-testid="live-heart-rate">
              <LatestValue staleMs={staleMs} text={text}>
                {text.heartRate(wearer.heartRate)}
              </LatestValue>
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">{words.worn}</dt>
            <dd>
              <LatestValue staleMs={staleMs} text={text} showAge={false}>
                <WornState worn={wearer.worn} text={text} stale={staleMs !== null} />
              </LatestValue>
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">{words.connection}</dt>
            <dd>
              <ConnectionState connection={wearer.connection} text={text} />
            </dd>
          </div>
        </dl>
        <p className="mt-1 text-xs text-slate-600">
          {words.lastSeen}: <LastSeen at={wearer.lastSeenAt} now={now} text={text} />
        </p>
      </div>
    </li>
  );
});
