import type { MapPerson, MapTiles } from '@wearable/domain';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { clusterByCell, fitView, placeInView, VIEW_H, VIEW_W } from './outdoor-geometry';
import { isUrgent } from './place-model';
import type { usePlaceText } from './place-text';

// Leaflet and its stylesheet are a chunk of their own, loaded only when there are tiles to show.
const LeafletView = lazy(() => import('./leaflet-view'));

/** A plain grid (north up) drawn when there are no tiles or they cannot load. */
const GRID =
  'repeating-linear-gradient(0deg, #e2e8f0 0 1px, transparent 1px 10%), repeating-linear-gradient(90deg, #e2e8f0 0 1px, transparent 1px 6.25%)';

/**
 * The people with a phone position on a Leaflet map (the server's MAP_TILE_URL, with its
 * attribution; panning and zooming, markers regrouped at each zoom). Without tiles, or once one
 * fails to load, the same markers stand on a plain grid with a notice: the positions never depend
 * on the tile server.
 */
export function OutdoorView({
  people,
  tiles,
  text,
}: {
  people: readonly MapPerson[];
  tiles: MapTiles;
  text: ReturnType<typeof usePlaceText>;
}) {
  const { t } = useTranslation('map');
  const [failed, setFailed] = useState(false);
  // The open marker's people by id: a live refetch brings new objects, the panel stays open with them.
  const [open, setOpen] = useState<{ key: string; ids: ReadonlySet<string> } | null>(null);
  const placed = useMemo(
    () =>
      people.flatMap((p) =>
        p.place.kind === 'position'
          ? [{ person: p, latitude: p.place.latitude, longitude: p.place.longitude }]
          : [],
      ),
    [people],
  );
  const view = useMemo(() => fitView(placed), [placed]);
  if (!view) return null;
  const showTiles = tiles !== null && !failed;
  const clusters = showTiles
    ? []
    : clusterByCell(placed.map((p) => ({ item: p.person, ...placeInView(p, view) })));
  const label = (items: readonly MapPerson[]) => {
    const urgent = items.filter(isUrgent).length;
    const first = items[0]!;
    return items.length === 1
      ? t(urgent ? 'outdoor.personUrgent' : 'outdoor.person', {
          name: first.name,
          place: text.place(first),
        })
      : t(urgent ? 'outdoor.clusterUrgent' : 'outdoor.cluster', { count: items.length, urgent });
  };
  const toggle = (key: string, items: readonly MapPerson[]) =>
    setOpen((now) =>
      now?.key === key ? null : { key, ids: new Set(items.map((p) => p.wearerId)) },
    );
  const opened = open ? people.filter((p) => open.ids.has(p.wearerId)) : null;
  return (
    <section aria-labelledby="map-outdoor-heading" className="mt-4 min-w-0">
      <h2 id="map-outdoor-heading" className="text-base font-semibold text-slate-900">
        {t('outdoor.heading')}
      </h2>
      {!showTiles && (
        <p role="status" className="mt-1 text-sm text-amber-900" data-testid="map-grid-notice">
          {tiles === null ? t('outdoor.noTiles') : t('outdoor.tilesFailed')}
        </p>
      )}
      {showTiles ? (
        <Suspense
          fallback={
            <p className="mt-2 text-sm text-slate-700" role="status">
              {t('outdoor.loading')}
            </p>
          }
        >
          <LeafletView
            placed={placed}
            tiles={tiles}
            label={(c) => label(c.items)}
            onOpen={(c) => toggle(`leaflet:${c.key}`, c.items)}
            onTileError={() => setFailed(true)}
          />
        </Suspense>
      ) : (
        <div
          className="relative mt-2 w-full overflow-hidden border border-slate-300 bg-slate-50"
          style={{
            aspectRatio: `${VIEW_W} / ${VIEW_H}`,
            backgroundImage: GRID,
          }}
          data-testid="map-outdoor"
        >
          {clusters.map((c) => {
            const urgent = c.items.filter(isUrgent).length;
            const expanded = open?.key === c.key;
            return (
              <button
                key={c.key}
                type="button"
                aria-expanded={expanded}
                aria-controls="map-outdoor-people"
                onClick={() => toggle(c.key, c.items)}
                aria-label={label(c.items)}
                data-testid="map-outdoor-marker"
                className={`absolute flex min-h-6 min-w-6 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full px-1.5 text-xs font-bold text-white shadow ${
                  urgent ? 'bg-red-700' : 'bg-teal-800'
                } ${focusRing}`}
                style={{ left: `${c.x}%`, top: `${c.y}%` }}
              >
                {urgent > 0 && (
                  <span
                    aria-hidden="true"
                    className="absolute inset-0 rounded-full bg-red-500 opacity-60 motion-safe:animate-ping"
                  />
                )}
                {c.items.length > 1 ? (
                  <span aria-hidden="true" className="relative">
                    {c.items.length}
                  </span>
                ) : (
                  <span aria-hidden="true" className="relative h-2 w-2 rounded-full bg-white" />
                )}
              </button>
            );
          })}
        </div>
      )}
      {tiles !== null && (
        <p className="mt-1 text-xs text-slate-700" data-testid="map-attribution">
          {tiles.attribution}
        </p>
      )}
      <div id="map-outdoor-people" aria-live="polite">
        {opened && opened.length > 0 && (
          <ul
            data-testid="map-outdoor-open"
            className="mt-2 flex flex-col gap-1 rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm"
          >
            {opened.map((p) => (
              <li key={p.wearerId} className="break-words">
                <PersonName
                  name={p.name}
                  className={isUrgent(p) ? 'font-semibold text-red-800' : ''}
                />
                {' — '}
                {text.place(p)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
