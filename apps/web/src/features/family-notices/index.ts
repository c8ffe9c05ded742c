export { FamilyNoticeSettings } from './components/family-notice-settings';
export { FamilyLineLink } from './components/family-line-link';
