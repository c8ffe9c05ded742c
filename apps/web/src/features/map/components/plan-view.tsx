import type { MapPerson, PlacedGatewayView, SiteView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { useSitePlanUrl } from '../../../lib/use-plan-image';
import { isUrgent } from './place-model';
import type { usePlaceText } from './place-text';

/**
 * A site's plan with its gateways as markers, each with the count of the people placed at it (a
 * cluster); a marker with someone in an SOS or a fall pulses red. A marker is a button that opens
 * the names below the plan (never over it, so nothing leaves a narrow screen).
 */
export function PlanView({
  site,
  gateways,
  atGateway,
  open,
  onOpen,
  text,
}: {
  site: SiteView;
  gateways: readonly PlacedGatewayView[];
  atGateway: Map<string, MapPerson[]>;
  open: string | null;
  onOpen: (gatewayId: string | null) => void;
  text: ReturnType<typeof usePlaceText>;
}) {
  const { t } = useTranslation('map');
  const { t: ta } = useTranslation('alerts');
  const url = useSitePlanUrl(site.id, site.plan?.sha256 ?? null);
  if (!site.plan) return null;
  const onThis = gateways.filter((g) => g.plan?.siteId === site.id);
  const opened = onThis.find((g) => g.gatewayId === open) ?? null;
  const openedPeople = opened ? (atGateway.get(opened.gatewayId) ?? []) : [];
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
          const people = atGateway.get(g.gatewayId) ?? [];
          const urgent = people.filter(isUrgent).length;
          const expanded = open === g.gatewayId;
          return (
            <button
              key={g.gatewayId}
              type="button"
              aria-expanded={expanded}
              aria-controls="map-gateway-people"
              onClick={() => onOpen(expanded ? null : g.gatewayId)}
              aria-label={t(urgent ? 'plan.markerUrgent' : 'plan.marker', {
                name: g.name,
                count: people.length,
                urgent,
              })}
              data-testid="map-marker"
              data-gateway={g.gatewayId}
              className={`absolute flex min-h-6 max-w-28 -translate-x-1/2 -translate-y-1/2 items-center gap-1 rounded-full px-2 py-1 text-xs font-medium text-white shadow ${
                urgent ? 'bg-red-700' : 'bg-teal-800'
              } ${expanded ? 'ring-2 ring-amber-400' : ''} ${focusRing}`}
              style={{ left: `${g.plan!.x * 100}%`, top: `${g.plan!.y * 100}%` }}
            >
              {urgent > 0 && (
                <span
                  aria-hidden="true"
                  className="absolute inset-0 rounded-full bg-red-500 opacity-60 motion-safe:animate-ping"
                />
              )}
              <span aria-hidden="true" className="relative hidden truncate sm:inline">
                {g.name}
              </span>{' '}
              <span
                aria-hidden="true"
                className="relative min-w-5 rounded-full bg-white px-1 text-center font-bold text-slate-900"
                data-testid="map-marker-count"
              >
                {people.length}
              </span>
            </button>
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
