export { usePerson } from './api/person';
export { ProfilePanel } from './components/profile-panel';
export { WatchersPanel } from './components/watchers-panel';
