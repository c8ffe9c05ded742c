export { PersonalAlertSettings } from './components/personal-alert-settings';
