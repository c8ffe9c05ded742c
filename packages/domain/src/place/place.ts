/**
 * Where a person is (issue 17): one function decides, from what the product knows, in this order.
 *
 * 1. **The phone's position, if fresh.** A phone gateway's own position (latitude, longitude,
 *    accuracy) no older than `positionFreshMs` (2 minutes): the phone is with the person.
 * 2. **The stationary gateway that heard the bracelet best recently.** Gateways may send each
 *    bracelet's signal strength (`rssi`, dBm). Each gateway's strength is smoothed (an exponential
 *    average, `rssiSmoothing` of the new value), and only gateways heard within `recentMs`
 *    (2 minutes) count. The place moves to another gateway only when that one is stronger by at
 *    least `switchMarginDb` (6 dB) or the current one has not heard the bracelet recently: a person
 *    standing between two rooms does not flicker between them. Without any `rssi`, the gateway of
 *    the last reading is the place.
 * 3. **Otherwise "last heard at <gateway>, HH:MM"**: the gateway that heard the bracelet last, and
 *    when, once no gateway has heard it within `recentMs`.
 * 4. **Unknown** when nothing was ever heard: said plainly, never guessed.
 *
 * Pure and of constant size (at most `maxGateways` gateways remembered per person), so the state
 * can be kept per wearer and stored as JSON like the alert engine's.
 */
export interface PlaceRules {
  positionFreshMs: number;
  recentMs: number;
  switchMarginDb: number;
  rssiSmoothing: number;
  maxGateways: number;
}

export const PLACE_RULES: PlaceRules = {
  positionFreshMs: 2 * 60_000,
  recentMs: 2 * 60_000,
  switchMarginDb: 6,
  rssiSmoothing: 0.3,
  maxGateways: 4,
};

/** A gateway heard the bracelet at `at` (ms), with its signal strength when it sends one. */
export interface Sighting {
  gatewayId: string;
  at: number;
  rssi: number | null;
}

/** A phone gateway's position (WGS 84 degrees, accuracy in metres, time in ms). */
export interface Position {
  latitude: number;
  longitude: number;
  accuracy: number;
  at: number;
  gatewayId: string;
}

interface Heard {
  gatewayId: string;
  /** Smoothed signal strength, or null when this gateway sends none. */
  rssi: number | null;
  lastAt: number;
}

export interface PlaceState {
  /** The gateway the person is placed at (hysteresis keeps it), or null. */
  current: string | null;
  /** Since when the person is placed at `current` (ms). */
  since: number | null;
  heard: Heard[];
}

export const NO_PLACE: PlaceState = { current: null, since: null, heard: [] };

export type Place =
  | ({ kind: 'position' } & Position)
  | { kind: 'gateway'; gatewayId: string; since: number; rssi: number | null }
  | { kind: 'last-heard'; gatewayId: string; at: number }
  | { kind: 'unknown' };

const isRecent = (h: Heard, now: number, rules: PlaceRules) => now - h.lastAt <= rules.recentMs;

/** Folds one sighting into the state (a sighting older than what a gateway already said is ignored). */
export function placeStep(
  state: PlaceState,
  sighting: Sighting,
  rules: PlaceRules = PLACE_RULES,
): PlaceState {
  const rssi = sighting.rssi !== null && Number.isFinite(sighting.rssi) ? sighting.rssi : null;
  const before = state.heard.find((h) => h.gatewayId === sighting.gatewayId);
  if (before && sighting.at < before.lastAt) return state;
  const smoothed =
    rssi === null
      ? null
      : before?.rssi != null && isRecent(before, sighting.at, rules)
        ? before.rssi + rules.rssiSmoothing * (rssi - before.rssi)
        : rssi;
  const entry: Heard = { gatewayId: sighting.gatewayId, rssi: smoothed, lastAt: sighting.at };
  // The gateway heard last heard it again (a gateway's batch after batch): it stays first, the
  // others keep their order; no filter and sort per reading (issue 17: the fold's cost).
  const heard =
    before !== undefined && state.heard[0] === before
      ? [entry, ...state.heard.slice(1, rules.maxGateways)]
      : [entry, ...state.heard.filter((h) => h.gatewayId !== sighting.gatewayId)]
          .sort((a, b) => b.lastAt - a.lastAt)
          .slice(0, rules.maxGateways);

  const current = heard.find((h) => h.gatewayId === state.current);
  const next = chooseGateway(current, entry, heard, sighting.at, rules);
  return next === state.current
    ? { ...state, heard }
    : { current: next, since: sighting.at, heard };
}

function chooseGateway(
  current: Heard | undefined,
  latest: Heard,
  heard: Heard[],
  now: number,
  rules: PlaceRules,
): string {
  if (!current || !isRecent(current, now, rules)) return latest.gatewayId;
  // Without signal strengths the gateway of the last reading is the place; a gateway that
  // measured the signal is not displaced by one that did not.
  if (current.rssi === null) return latest.gatewayId;
  const best = heard
    .filter((h) => h.rssi !== null && isRecent(h, now, rules))
    .reduce((a, b) => ((b.rssi ?? -Infinity) > (a.rssi ?? -Infinity) ? b : a), current);
  return (best.rssi ?? -Infinity) - current.rssi >= rules.switchMarginDb
    ? best.gatewayId
    : current.gatewayId;
}

/** Where the person is at `now`, from the folded sightings and the phone's newest position. */
export function placeOf(
  state: PlaceState,
  position: Position | null,
  now: number,
  rules: PlaceRules = PLACE_RULES,
): Place {
  if (position && now - position.at <= rules.positionFreshMs && position.at <= now) {
    return { kind: 'position', ...position };
  }
  const current = state.heard.find((h) => h.gatewayId === state.current);
  if (current && state.since !== null && isRecent(current, now, rules)) {
    return {
      kind: 'gateway',
      gatewayId: current.gatewayId,
      since: state.since,
      rssi: current.rssi,
    };
  }
  const last = state.heard[0];
  return last
    ? { kind: 'last-heard', gatewayId: last.gatewayId, at: last.lastAt }
    : { kind: 'unknown' };
}
