export { PersonalAlertSettings } from './components/personal-alert-settings';
export { BulkAlertSettings } from './components/bulk-alert-settings';
