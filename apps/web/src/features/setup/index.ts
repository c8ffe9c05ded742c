export { useSetupPending } from './api/use-setup-pending';
export { DemoAccountRibbon } from './components/demo-account-ribbon';
