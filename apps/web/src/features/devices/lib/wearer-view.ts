import { type AlertLevel, compareByReading, type DeviceSummary } from '@wearable/domain';

/**
 * The device list's orders: those in alarm first (the default, issue 36), or by name. The server's /v2/user
 * sort (WEARER_SORTS) is another thing: this one is the console's, kept in localStorage.
 */
export const DEVICE_LIST_SORTS = ['alerts_first', 'name_asc', 'name_desc'] as const;
export type DeviceListSort = (typeof DEVICE_LIST_SORTS)[number];
export const DEFAULT_DEVICE_LIST_SORT: DeviceListSort = 'alerts_first';
export const isDeviceListSort = (v: unknown): v is DeviceListSort =>
  (DEVICE_LIST_SORTS as readonly unknown[]).includes(v);

/** The list's state filter: everyone, or only those the coverage strip counts under one reason. */
export const WEARER_STATES = ['all', 'alerts', 'notWorn', 'offline', 'lowBattery'] as const;
export type WearerState = (typeof WEARER_STATES)[number];

/** Low battery as the coverage strip counts it (percent, inclusive). */
const LOW_BATTERY_PERCENT = 20;

export interface WearerView {
  sort: DeviceListSort;
  /** Free text matched against name, group and bracelet (case and width folded). */
  text: string;
  state: WearerState;
  /** Only this group's wearers (/groups/{groupId}/devices). */
  groupId?: string;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

const STATE_TESTS: Record<WearerState, (w: DeviceSummary) => boolean> = {
  all: () => true,
  alerts: (w) => w.openAlerts.length > 0,
  notWorn: (w) => w.worn === false,
  offline: (w) => w.connection === 'offline',
  lowBattery: (w) => w.battery !== null && w.battery <= LOW_BATTERY_PERCENT,
};

/**
 * The one comparison of two people's names: by the reading of the name (furigana, `readings` by uid) when one
 * is given, else the name, in the reader's language's collation; the uid breaks ties.
 */
export function nameComparer(
  collator: Intl.Collator,
  readings: ReadonlyMap<string, string | null> = new Map(),
): (a: Pick<DeviceSummary, 'name' | 'uid'>, b: Pick<DeviceSummary, 'name' | 'uid'>) => number {
  const compare = compareByReading(collator);
  return (a, b) =>
    compare(
      { uid: a.uid, name: a.name, nameReading: readings.get(a.uid) },
      { uid: b.uid, name: b.name, nameReading: readings.get(b.uid) },
    );
}

// A DEVICE_STATUS alert (a device problem, not the person) ranks with the device states, after CAUTION.
const LEVEL_RANK: Record<AlertLevel, number> = {
  EMERGENCY: 0,
  CRITICAL: 1,
  CAUTION: 2,
  DEVICE_STATUS: 3,
};
const NO_ALERT = 3;
/** The most urgent open alert's rank: EMERGENCY 0, CRITICAL 1, CAUTION 2, none 3. */
export const alertRank = (w: Pick<DeviceSummary, 'openAlerts'>): number =>
  Math.min(NO_ALERT, ...w.openAlerts.map((a) => LEVEL_RANK[a.level] ?? NO_ALERT));

/** The device's state after the alerts: not heard first, then not worn, then a low battery, then fine. */
export const statusRank = (w: Pick<DeviceSummary, 'connection' | 'worn' | 'battery'>): number =>
  w.connection === 'offline'
    ? 0
    : w.worn === false
      ? 1
      : w.battery !== null && w.battery <= LOW_BATTERY_PERCENT
        ? 2
        : 3;

/**
 * The wearers of one group (or all) in the chosen order: `alerts_first` puts those with an open EMERGENCY, then
 * CRITICAL, then CAUTION alert on top, then by the device's state, then by name; the name orders by name alone.
 */
export function sortedWearers(
  wearers: readonly DeviceSummary[],
  sort: DeviceListSort,
  locale: string,
  groupId?: string,
  readings: ReadonlyMap<string, string | null> = new Map(),
): DeviceSummary[] {
  const compare = nameComparer(new Intl.Collator(locale), readings);
  const mine = groupId === undefined ? [...wearers] : wearers.filter((w) => w.groupId === groupId);
  if (sort === 'alerts_first')
    return mine.sort(
      (a, b) => alertRank(a) - alertRank(b) || statusRank(a) - statusRank(b) || compare(a, b),
    );
  const sorted = mine.sort(compare);
  return sort === 'name_desc' ? sorted.reverse() : sorted;
}

/**
 * What the order depends on (names, their readings, groups and, for alerts first, alert levels and state):
 * re-sorted only when it changes.
 */
export function orderKey(
  wearers: readonly DeviceSummary[],
  sort: DeviceListSort,
  readings: ReadonlyMap<string, string | null> = new Map(),
): string {
  return wearers
    .map(
      (w) =>
        `${w.uid}\u0000${w.name}\u0000${w.groupId ?? ''}\u0000${readings.get(w.uid) ?? ''}` +
        (sort === 'alerts_first' ? `\u0000${alertRank(w)}${statusRank(w)}` : ''),
    )
    .join('\u0001');
}

/** The sorted list narrowed by the text and state filters, in memory: no request per change. */
export function filterWearers(
  sorted: readonly DeviceSummary[],
  { text, state }: Pick<WearerView, 'text' | 'state'>,
): readonly DeviceSummary[] {
  const needle = fold(text.trim());
  const test = STATE_TESTS[state];
  if (needle === '' && state === 'all') return sorted;
  return sorted.filter(
    (w) =>
      test(w) &&
      (needle === '' ||
        [w.name, w.groupName, w.deviceName, w.serialNumber].some(
          (field) => field !== null && fold(field).includes(needle),
        )),
  );
}
