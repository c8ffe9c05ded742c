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

/** A marker on the map and the cluster it stands for now (its handlers read the latest). */
interface Shown {
  marker: L.Marker;
  look: string;
  cluster: Cluster<MapPerson>;
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
  const shown = useRef(new Map<string, Shown>());
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
      shown.current = new Map();
      fitted.current = false;
    };
    // The map is made once per tile template; the people follow in the next effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tiles.url]);

  /**
   * Draws the clusters of the current zoom. A marker whose cluster is unchanged (same place, count
   * and urgency) is kept, so a live refetch never takes the focus from the marker a keyboard user
   * is on; a marker that must be replaced hands its focus to its successor.
   */
  function draw() {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    const zoom = m.getZoom();
    const clusters = clusterByPixel(
      latest.current.placed.map((p) => {
        const at = m.project([p.latitude, p.longitude], zoom);
        return { item: p.person, x: at.x, y: at.y, latitude: p.latitude, longitude: p.longitude };
      }),
      CLUSTER_PX,
    );
    const before = shown.current;
    const next = new Map<string, Shown>();
    for (const c of clusters) {
      const urgent = c.items.some(isUrgent);
      const count = c.items.length;
      const look = `${zoom}|${c.latitude}|${c.longitude}|${count}|${urgent}`;
      const kept = before.get(c.key);
      if (kept && kept.look === look) {
        before.delete(c.key);
        kept.cluster = c;
        kept.marker.getElement()?.setAttribute('aria-label', latest.current.label(c));
        next.set(c.key, kept);
        continue;
      }
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
      const entry: Shown = { marker, look, cluster: c };
      const wasFocused = kept?.marker.getElement() === document.activeElement;
      marker.on('click', () => latest.current.onOpen(entry.cluster));
      // Leaflet makes the marker's element when the marker reaches a map that has a view, which
      // may be later than now (before the first fit): name it and listen to it then.
      marker.on('add', () => {
        const el = marker.getElement();
        if (!el) return;
        el.setAttribute('aria-label', latest.current.label(entry.cluster));
        el.setAttribute('data-testid', 'map-leaflet-marker');
        el.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          latest.current.onOpen(entry.cluster);
        });
        if (wasFocused) el.focus();
      });
      marker.addTo(group);
      next.set(c.key, entry);
    }
    for (const gone of before.values()) group.removeLayer(gone.marker);
    shown.current = next;
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
