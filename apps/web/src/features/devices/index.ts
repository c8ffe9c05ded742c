export { filterWearers, sortedWearers, WEARER_STATES, type WearerState } from './lib/wearer-view';
export { WearerFilter } from './components/wearer-filter';
export { WearerSortSelect } from './components/wearer-sort-select';
