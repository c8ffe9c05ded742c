import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlacedGatewayView, SiteView } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { usePlaceGateway } from '../api/change-sites';
import { messageOf, percent } from './site-text';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';

/** '' → null; a number within [min, max] → it; anything else → NaN (refused). */
function parse(value: string, min: number, max: number): number | null {
  if (value.trim() === '') return null;
  const n = Number(value.replace(',', '.'));
  return Number.isFinite(n) && n >= min && n <= max ? n : Number.NaN;
}

/**
 * The keyboard way to place a gateway (beside drag and drop): its position on this site's plan in
 * percent from the top left, and its latitude and longitude. Each pair is given whole or left empty.
 */
export function GatewayPlaceForm({
  gateway,
  site,
  onDone,
}: {
  gateway: PlacedGatewayView;
  site: SiteView;
  onDone: () => void;
}) {
  const { t } = useTranslation('sites');
  const id = useId();
  const here = gateway.plan?.siteId === site.id ? gateway.plan : null;
  const [x, setX] = useState(here ? String(percent(here.x)) : '');
  const [y, setY] = useState(here ? String(percent(here.y)) : '');
  const [lat, setLat] = useState(gateway.position ? String(gateway.position.latitude) : '');
  const [lon, setLon] = useState(gateway.position ? String(gateway.position.longitude) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const place = usePlaceGateway();

  function submit(e: FormEvent) {
    e.preventDefault();
    const [px, py] = [parse(x, 0, 100), parse(y, 0, 100)];
    const [la, lo] = [parse(lat, -90, 90), parse(lon, -180, 180)];
    if ([px, py, la, lo].some((v) => Number.isNaN(v))) return setProblem(t('gateways.outOfRange'));
    if ((px === null) !== (py === null) || (la === null) !== (lo === null))
      return setProblem(t('gateways.needBoth'));
    // This form places on this site; a place on another site stays unless this one is given.
    const plan =
      px !== null && py !== null
        ? { siteId: site.id, x: px / 100, y: py / 100 }
        : here
          ? null
          : gateway.plan;
    const position = la !== null && lo !== null ? { latitude: la, longitude: lo } : null;
    setProblem(null);
    place.mutate(
      { gatewayId: gateway.gatewayId, place: { plan, position } },
      { onSuccess: onDone, onError: (err) => setProblem(t('failed', { message: messageOf(err) })) },
    );
  }

  const field = (
    key: 'x' | 'y' | 'latitude' | 'longitude',
    value: string,
    set: (v: string) => void,
  ) => (
    <div>
      <label htmlFor={`${id}-${key}`} className="block text-sm font-medium text-slate-800">
        {t(`gateways.${key}`)}
      </label>
      <input
        id={`${id}-${key}`}
        className={inputClass}
        inputMode="decimal"
        value={value}
        onChange={(e) => set(e.target.value)}
        data-testid={`place-${key}`}
      />
    </div>
  );

  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-3"
      data-testid="gateway-place-form"
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        {t('gateways.formTitle', { name: gateway.name })}
      </h4>
      <fieldset className="mt-2">
        <legend className="text-sm text-slate-700">
          {t('gateways.onPlan', { site: site.name })}
        </legend>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {field('x', x, setX)}
          {field('y', y, setY)}
        </div>
      </fieldset>
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
        {field('latitude', lat, setLat)}
        {field('longitude', lon, setLon)}
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" variant="primary" disabled={place.isPending}>
          {t('gateways.save')}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          {t('gateways.cancel')}
        </Button>
      </div>
    </form>
  );
}
