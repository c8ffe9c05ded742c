export { sortWearers, useWearers } from './api/wearers-api';
export { WearerSortSelect } from './components/wearer-sort-select';
