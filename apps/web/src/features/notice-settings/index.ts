export { NoticeSettingsPanel } from './components/notice-settings-panel';
