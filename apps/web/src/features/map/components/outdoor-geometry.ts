/**
 * Web Mercator for the outdoor map's plain grid (docs/map.md), drawn when there are no tiles or they
 * cannot load: a fixed view of VIEW_W x VIEW_H "tile pixels" fitted to the positions shown, in
 * percentages so it scales to any width (a 360 px phone included). With tiles, Leaflet draws the map
 * and `clusterByPixel` groups its markers at each zoom.
 */
export const VIEW_W = 640;
export const VIEW_H = 400;
const TILE = 256;
const PAD = 40;
const MAX_ZOOM = 17;

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** World pixel coordinates of a position at zoom z. */
export function project(p: LatLng, z: number): { x: number; y: number } {
  const scale = TILE * 2 ** z;
  const lat = Math.max(-85.05112878, Math.min(85.05112878, p.latitude));
  const sin = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((p.longitude + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

export interface View {
  zoom: number;
  /** World pixel coordinates of the view's top left corner. */
  left: number;
  top: number;
}

/** The highest zoom at which every position fits the view with a margin, centred on them. */
export function fitView(points: readonly LatLng[]): View | null {
  if (points.length === 0) return null;
  for (let zoom = MAX_ZOOM; zoom >= 0; zoom--) {
    const xs = points.map((p) => project(p, zoom));
    const minX = Math.min(...xs.map((p) => p.x));
    const maxX = Math.max(...xs.map((p) => p.x));
    const minY = Math.min(...xs.map((p) => p.y));
    const maxY = Math.max(...xs.map((p) => p.y));
    if (maxX - minX <= VIEW_W - 2 * PAD && maxY - minY <= VIEW_H - 2 * PAD) {
      return {
        zoom,
        left: (minX + maxX) / 2 - VIEW_W / 2,
        top: (minY + maxY) / 2 - VIEW_H / 2,
      };
    }
  }
  return { zoom: 0, left: 0, top: 0 };
}

/** Where a position falls in the view, in percent from the top left. */
export function placeInView(p: LatLng, view: View): { x: number; y: number } {
  const w = project(p, view.zoom);
  return { x: ((w.x - view.left) / VIEW_W) * 100, y: ((w.y - view.top) / VIEW_H) * 100 };
}

/**
 * People whose markers would overlap (within `cellPercent` of the view) form one cluster: one
 * marker with a count that opens their names.
 */
export function clusterByCell<T>(
  items: readonly { item: T; x: number; y: number }[],
  cellPercent = 6,
): { key: string; x: number; y: number; items: T[] }[] {
  const cells = new Map<string, { key: string; x: number; y: number; items: T[] }>();
  for (const { item, x, y } of items) {
    const key = `${Math.round(x / cellPercent)}:${Math.round(y / cellPercent)}`;
    const cell = cells.get(key);
    if (cell) cell.items.push(item);
    else cells.set(key, { key, x, y, items: [item] });
  }
  return [...cells.values()];
}

export interface Cluster<T> {
  key: string;
  latitude: number;
  longitude: number;
  items: T[];
}

/**
 * People whose markers would overlap at the map's current zoom (screen pixels `x`, `y`, e.g.
 * Leaflet's `map.project`) form one cluster, placed at the first one's position; recomputed on each
 * zoom, so zooming in splits them.
 */
export function clusterByPixel<T>(
  items: readonly { item: T; x: number; y: number; latitude: number; longitude: number }[],
  cellPx: number,
): Cluster<T>[] {
  const cells = new Map<string, Cluster<T>>();
  for (const { item, x, y, latitude, longitude } of items) {
    const key = `${Math.round(x / cellPx)}:${Math.round(y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) cell.items.push(item);
    else cells.set(key, { key, latitude, longitude, items: [item] });
  }
  return [...cells.values()];
}
