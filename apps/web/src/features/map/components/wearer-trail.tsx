import { TRAIL_HOURS, zoneName } from '@wearable/domain';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { formatLocalDateTime } from '../../../lib/date-format';
import { useWearerTrail } from '../api/get-wearer-trail';

// Leaflet is its own chunk, loaded only when there are positions to draw.
const TrailMap = lazy(() => import('./trail-map'));

/**
 * The wearer page's trail of the last 12 hours (issue 17, item 4 (g); docs/map.md): phone positions
 * as a line on the map, and the stays at gateways as a list ("本館 · 正門 14:03–14:40"), the list
 * being the accessible form. Withheld like /map's places when the organisation shows places only
 * during alerts.
 */
export function WearerTrail({ uid }: { uid: string }) {
  const { t, i18n } = useTranslation('map');
  const trail = useWearerTrail(uid);
  const [tilesFailed, setTilesFailed] = useState(false);
  const time = (at: string) => formatLocalDateTime(at, i18n.resolvedLanguage);
  const data = trail.data;
  const first = data?.positions[0];
  const last = data?.positions.at(-1);
  return (
    <section
      aria-labelledby="trail-title"
      data-testid="wearer-trail"
      className="mt-4 min-w-0 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="trail-title" className="text-base font-semibold text-slate-900">
        {t('trail.heading', { hours: TRAIL_HOURS.default })}
      </h2>
      <QueryState
        isPending={trail.isPending}
        isError={trail.isError}
        isEmpty={false}
        labels={{
          loading: t('trail.loading'),
          error: t('trail.error'),
          empty: t('trail.empty'),
          retry: t('retry'),
        }}
        onRetry={() => void trail.refetch()}
      >
        {data &&
          (data.withheld ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="trail-withheld">
              {t('trail.withheld')}
            </p>
          ) : data.positions.length === 0 && data.stays.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="trail-empty">
              {t('trail.empty')}
            </p>
          ) : (
            <>
              {first && last && (
                <>
                  <p className="mt-2 text-sm text-slate-700" data-testid="trail-positions">
                    {/* One position has one time; the plural rules of ja have no "one" form. */}
                    {data.positions.length === 1
                      ? t('trail.onePosition', { from: time(first.at) })
                      : t('trail.positions', {
                          count: data.positions.length,
                          from: time(first.at),
                          to: time(last.at),
                        })}
                  </p>
                  {(data.tiles === null || tilesFailed) && (
                    <p role="status" className="mt-1 text-sm text-amber-900">
                      {data.tiles === null ? t('trail.noTiles') : t('trail.tilesFailed')}
                    </p>
                  )}
                  <Suspense
                    fallback={<p className="mt-2 text-sm text-slate-700">{t('outdoor.loading')}</p>}
                  >
                    <TrailMap
                      positions={data.positions}
                      tiles={data.tiles}
                      onTileError={() => setTilesFailed(true)}
                    />
                  </Suspense>
                  {data.tiles !== null && !tilesFailed && (
                    <p className="mt-1 text-xs text-slate-700">{data.tiles.attribution}</p>
                  )}
                </>
              )}
              {data.stays.length > 0 && (
                <>
                  <h3 className="mt-3 text-sm font-semibold text-slate-900">
                    {t('trail.staysHeading')}
                  </h3>
                  <ol className="mt-1 flex flex-col gap-1 text-sm" data-testid="trail-stays">
                    {data.stays.map((s) => (
                      <li key={`${s.gatewayId}-${s.from}`} className="break-words">
                        <span className="font-medium">
                          {zoneName({
                            gatewayId: s.gatewayId,
                            gatewayName: s.name,
                            siteName: s.siteName,
                          })}
                        </span>{' '}
                        <span className="tabular-nums">
                          {t('trail.fromTo', { from: time(s.from), to: time(s.to) })}
                        </span>
                      </li>
                    ))}
                  </ol>
                </>
              )}
            </>
          ))}
      </QueryState>
    </section>
  );
}
