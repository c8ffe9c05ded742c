export { FamilyNoticeSettings } from './components/family-notice-settings';
