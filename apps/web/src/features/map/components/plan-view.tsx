import type { PlacedGatewayView, SiteView } from '@wearable/domain';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { type GatewayPeople, isUrgent } from './place-model';
import type { usePlaceText } from './place-text';

/**
 * A site's plan with its gateways as markers, each with the count of the people placed at it (a
 * cluster); a marker with someone in an SOS or a fall pulses red. A marker is a button that opens
 * the names below the plan (never over it, so nothing leaves a narrow screen).
 */
export function PlanView({
  site,
  planUrl: url,
  gateways,
  atGateway,
  open,
  onOpen,
  text,
}: {
  site: SiteView;
  /** The plan image (useSitePlanUrl), null while it loads. */
  planUrl: string | null;
  gateways: readonly PlacedGatewayView[];
  atGateway: Map<string, GatewayPeople>;
  open: string | null;
  onOpen: (gatewayId: string | null) => void;
  text: ReturnType<typeof usePlaceText>;
}) {
  const { t } = useTranslation('map');
  const { t: ta } = useTranslation('alerts');
  const onThis = useMemo(
    () => gateways.filter((g) => g.plan?.siteId === site.id),
    [gateways, site.id],
  );
  // The markers' accessible names from one translation per count (a few dozen for 500 markers):
  // each gateway's name goes into its count's translated sentence afterwards.
  const labels = useMemo(() => {
    const sentences = new Map<string, string>();
    const byGateway = new Map<string, string>();
    for (const g of onThis) {
      const here = atGateway.get(g.gatewayId);
      const count = here?.people.length ?? 0;
      const urgent = here?.urgent ?? 0;
      const key = `${count}/${urgent}`;
      let sentence = sentences.get(key);
      if (sentence === undefined) {
        sentence = t(urgent ? 'plan.markerUrgent' : 'plan.marker', {
          name: NAME_SLOT,
          count,
          urgent,
        });
        sentences.set(key, sentence);
      }
      byGateway.set(
        g.gatewayId,
        sentence.replace(NAME_SLOT, () => g.name),
      );
    }
    return byGateway;
  }, [t, onThis, atGateway]);
  if (!site.plan) return null;
  const opened = onThis.find((g) => g.gatewayId === open) ?? null;
  const openedPeople = opened ? (atGateway.get(opened.gatewayId)?.people ?? []) : [];
  return (
    <figure className="min-w-0">
      <div
        className="relative w-full overflow-hidden border border-slate-300 bg-white"
        style={{ aspectRatio: `${site.plan.width} / ${site.plan.height}` }}
        data-testid="map-plan"
      >
        {url ? (
          <img
            src={url}
            alt={t('plan.alt', { name: site.name })}
            className="absolute inset-0 h-full w-full object-fill select-none"
            draggable={false}
          />
        ) : (
          <p className="p-3 text-sm text-slate-600">{t('plan.loading')}</p>
        )}
        {onThis.map((g) => {
          const here = atGateway.get(g.gatewayId);
          const count = here?.people.length ?? 0;
          const urgent = here?.urgent ?? 0;
          return (
            <Marker
              key={g.gatewayId}
              gatewayId={g.gatewayId}
              name={g.name}
              x={g.plan!.x}
              y={g.plan!.y}
              count={count}
              urgent={urgent}
              label={labels.get(g.gatewayId) ?? g.name}
              expanded={open === g.gatewayId}
              onOpen={onOpen}
            />
          );
        })}
      </div>
      <figcaption className="mt-1 text-sm text-slate-700">{t('plan.hint')}</figcaption>
      <div id="map-gateway-people" aria-live="polite">
        {opened && (
          <section
            aria-label={t('plan.peopleAt', { name: opened.name })}
            className="mt-2 rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm"
            data-testid="map-gateway-people"
          >
            <h3 className="font-semibold">{t('plan.peopleAt', { name: opened.name })}</h3>
            {openedPeople.length === 0 ? (
              <p className="mt-1">{t('plan.nobody')}</p>
            ) : (
              <ul className="mt-1 flex flex-col gap-1">
                {openedPeople.map((p) => (
                  <li key={p.wearerId} className="break-words">
                    <PersonName
                      name={p.name}
                      className={isUrgent(p) ? 'font-semibold text-red-800' : ''}
                    />
                    {' — '}
                    {text.since(p)?.label}
                    {p.alert ? ` · ${ta(`types.${p.alert.type}`)}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </figure>
  );
}

/** Stands for the gateway's name in a marker's translated sentence (no name holds it). */
const NAME_SLOT = '\u0000';

/**
 * A gateway's marker: the count of the people there, red and pulsing when one of them is in an SOS
 * or emergency. Memoised: a refetch or an opened panel redraws only the markers that changed.
 */
const Marker = memo(function Marker({
  gatewayId,
  name,
  x,
  y,
  count,
  urgent,
  label,
  expanded,
  onOpen,
}: {
  gatewayId: string;
  name: string;
  x: number;
  y: number;
  count: number;
  urgent: number;
  label: string;
  expanded: boolean;
  onOpen: (gatewayId: string | null) => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls="map-gateway-people"
      onClick={() => onOpen(expanded ? null : gatewayId)}
      aria-label={label}
      data-testid="map-marker"
      data-gateway={gatewayId}
      className={`absolute flex min-h-6 max-w-28 -translate-x-1/2 -translate-y-1/2 items-center gap-1 rounded-full px-2 py-1 text-xs font-medium text-white shadow ${
        urgent ? 'bg-red-700' : 'bg-teal-800'
      } ${expanded ? 'ring-2 ring-amber-400' : ''} ${focusRing}`}
      style={{ left: `${x * 100}%`, top: `${y * 100}%` }}
    >
      {urgent > 0 && (
        <span
          aria-hidden="true"
          className="absolute inset-0 rounded-full bg-red-500 opacity-60 motion-safe:animate-ping"
        />
      )}
      <span aria-hidden="true" className="relative hidden truncate sm:inline">
        {name}
      </span>{' '}
      <span
        aria-hidden="true"
        className="relative min-w-5 rounded-full bg-white px-1 text-center font-bold text-slate-900"
        data-testid="map-marker-count"
      >
        {count}
      </span>
    </button>
  );
});
