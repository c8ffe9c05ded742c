import 'leaflet/dist/leaflet.css';
import type { MapPerson, MapTiles } from '@wearable/domain';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { clusterByPixel, type Cluster } from './outdoor-geometry';
import { isUrgent } from './place-model';

export interface Placed {
  person: MapPerson;
  latitude: number;
  longitude: number;
}

/** Markers closer than this many screen pixels at the current zoom form one cluster. */
const CLUSTER_PX = 40;
const MAX_ZOOM = 18;
const FIT_MAX_ZOOM = 17;

/**
 * The outdoor map with Leaflet 1.9 (docs/map.md): the server's tile template and attribution, a
 * marker per person or a count per cluster (regrouped on every zoom), pulsing red for an SOS, a
 * fall or a critical alert. Markers are focusable buttons (Leaflet's `keyboard`) with an accessible
 * name; Enter, Space or a click hands the cluster's people to `onOpen`. The first tile that fails to
 * load calls `onTileError` (the parent then draws the plain grid). Leaflet directly, no
 * react-leaflet: one map, one layer group, rebuilt from props in an effect.
 */
export default function LeafletView({
  placed,
  tiles,
  label,
  onOpen,
  onTileError,
}: {
  placed: readonly Placed[];
  tiles: NonNullable<MapTiles>;
  label: (cluster: Cluster<MapPerson>) => string;
  onOpen: (cluster: Cluster<MapPerson>) => void;
  onTileError: () => void;
}) {
  const { t, i18n } = useTranslation('map');
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);
  // The latest props for Leaflet's event handlers, without rebuilding the map.
  const latest = useRef({ placed, label, onOpen, onTileError });
  latest.current = { placed, label, onOpen, onTileError };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const m = L.map(el, {
      maxZoom: MAX_ZOOM,
      attributionControl: false, // the attribution is printed under the map, as text
      zoomControl: false,
      worldCopyJump: true,
    });
    L.control
      .zoom({ zoomInTitle: t('outdoor.zoomIn'), zoomOutTitle: t('outdoor.zoomOut') })
      .addTo(m);
    const tileLayer = L.tileLayer(tiles.url, {
      maxZoom: MAX_ZOOM,
      // OpenStreetMap's tile policy asks who shows its tiles: our origin, never the path.
      referrerPolicy: 'strict-origin-when-cross-origin',
    });
    let failed = false;
    tileLayer.on('tileerror', () => {
      if (failed) return;
      failed = true;
      latest.current.onTileError();
    });
    tileLayer.addTo(m);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    m.on('zoomend', () => draw());
    return () => {
      m.remove();
      map.current = null;
      layer.current = null;
      fitted.current = false;
    };
    // The map is made once per tile template; the people follow in the next effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tiles.url]);

  function draw() {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    const zoom = m.getZoom();
    const clusters = clusterByPixel(
      latest.current.placed.map((p) => {
        const at = m.project([p.latitude, p.longitude], zoom);
        return { item: p.person, x: at.x, y: at.y, latitude: p.latitude, longitude: p.longitude };
      }),
      CLUSTER_PX,
    );
    for (const c of clusters) {
      const urgent = c.items.some(isUrgent);
      const count = c.items.length;
      const marker = L.marker([c.latitude, c.longitude], {
        keyboard: true,
        riseOnHover: true,
        zIndexOffset: urgent ? 1000 : 0,
        icon: L.divIcon({
          className: `flex items-center justify-center rounded-full text-xs font-bold text-white shadow outline-offset-2 focus-visible:outline focus-visible:outline-3 focus-visible:outline-sky-700 ${
            urgent ? 'bg-red-700' : 'bg-teal-800'
          }`,
          iconSize: [28, 28],
          html:
            (urgent
              ? '<span aria-hidden="true" class="pointer-events-none absolute inset-0 rounded-full bg-red-500 opacity-60 motion-safe:animate-ping"></span>'
              : '') +
            (count > 1
              ? `<span aria-hidden="true" class="relative">${count}</span>`
              : '<span aria-hidden="true" class="relative h-2 w-2 rounded-full bg-white"></span>'),
        }),
      });
      marker.on('click', () => latest.current.onOpen(c));
      marker.addTo(group);
      const el = marker.getElement();
      if (el) {
        el.setAttribute('aria-label', latest.current.label(c));
        el.setAttribute('data-testid', 'map-leaflet-marker');
        el.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          latest.current.onOpen(c);
        });
      }
    }
  }

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!fitted.current && placed.length > 0) {
      // Fitted to the people once; after that the view is the reader's (refetches keep it).
      fitted.current = true;
      m.fitBounds(L.latLngBounds(placed.map((p) => [p.latitude, p.longitude])), {
        padding: [CLUSTER_PX, CLUSTER_PX],
        maxZoom: FIT_MAX_ZOOM,
        animate: false,
      });
    }
    draw();
    // draw reads the latest props through the ref; the names follow the language.
  }, [placed, i18n.resolvedLanguage]);

  return (
    <div
      ref={box}
      role="region"
      aria-label={t('outdoor.mapLabel')}
      className="mt-2 h-72 w-full border border-slate-300 bg-slate-50 sm:h-96"
      data-testid="map-leaflet"
    />
  );
}
