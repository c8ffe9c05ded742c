export {
  nameComparer,
  DEVICE_LIST_SORTS,
  type DeviceListSort,
  filterWearers,
  orderKey,
  sortedWearers,
  WEARER_STATES,
  type WearerState,
} from './lib/wearer-view';
export { DEVICE_LIST_SORT_KEY, useDeviceListSort } from './lib/use-device-list-sort';
export { WearerFilter } from './components/wearer-filter';
export { WearerSortSelect } from './components/wearer-sort-select';
