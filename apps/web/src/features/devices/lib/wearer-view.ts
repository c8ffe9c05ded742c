import type { DeviceSummary, WearerSort } from '@wearable/domain';

/** The list's state filter: everyone, or only those the coverage strip counts under one reason. */
export const WEARER_STATES = ['all', 'alerts', 'notWorn', 'offline', 'lowBattery'] as const;
export type WearerState = (typeof WEARER_STATES)[number];

/** Low battery as the coverage strip counts it (percent, inclusive). */
const LOW_BATTERY_PERCENT = 20;

export interface WearerView {
  sort: WearerSort;
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

/** The wearers of one group (or all) in name order of the reader's language: the filters' base. */
export function sortedWearers(
  wearers: readonly DeviceSummary[],
  sort: WearerSort,
  locale: string,
  groupId?: string,
): DeviceSummary[] {
  const collator = new Intl.Collator(locale);
  const mine = groupId === undefined ? [...wearers] : wearers.filter((w) => w.groupId === groupId);
  const sorted = mine.sort((a, b) => collator.compare(a.name, b.name) || (a.uid < b.uid ? -1 : 1));
  return sort === 'name_desc' ? sorted.reverse() : sorted;
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
