import 'leaflet/dist/leaflet.css';
import type { MapTiles, TrailPosition } from '@wearable/domain';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A wearer's positions as a line on a Leaflet map (the wearer page's trail; docs/map.md), the
 * newest one a dot. When a tile fails to load the tiles go and the line stays on a plain background
 * (`onTileError` lets the page say so). Decorative for screen readers: the page's text says the same.
 */
export default function TrailMap({
  positions,
  tiles,
  onTileError,
}: {
  positions: readonly TrailPosition[];
  tiles: MapTiles;
  onTileError: () => void;
}) {
  const { t } = useTranslation('map');
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef(onTileError);
  useEffect(() => {
    latest.current = onTileError;
  });

  useEffect(() => {
    const el = box.current;
    if (!el || positions.length === 0) return;
    const m = L.map(el, { attributionControl: false, zoomControl: false, maxZoom: 18 });
    L.control
      .zoom({ zoomInTitle: t('outdoor.zoomIn'), zoomOutTitle: t('outdoor.zoomOut') })
      .addTo(m);
    if (tiles) {
      const layer = L.tileLayer(tiles.url, {
        maxZoom: 18,
        referrerPolicy: 'strict-origin-when-cross-origin',
      });
      layer.once('tileerror', () => {
        m.removeLayer(layer);
        latest.current();
      });
      layer.addTo(m);
    }
    const points = positions.map((p) => L.latLng(p.latitude, p.longitude));
    L.polyline(points, { color: '#115e59', weight: 4, interactive: false }).addTo(m);
    L.circleMarker(points[points.length - 1]!, {
      radius: 7,
      color: '#ffffff',
      weight: 2,
      fillColor: '#115e59',
      fillOpacity: 1,
      interactive: false,
    }).addTo(m);
    m.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 17, animate: false });
    return () => {
      m.remove();
    };
  }, [positions, tiles, t]);

  return (
    <div
      ref={box}
      role="region"
      aria-label={t('trail.mapLabel')}
      className="mt-2 h-64 w-full border border-slate-300 bg-slate-50 sm:h-80"
      data-testid="trail-map"
    />
  );
}
