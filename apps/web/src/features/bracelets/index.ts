export { DeviceSettingPanel, type BraceletWearer } from './components/device-setting-panel';
export { PairingPoller } from './components/pairing-poller';
export { PairingModal, type PairingModalData } from './components/pairing-modal';
export { UnlinkModal, type UnlinkModalData } from './components/unlink-modal';
export { RegisterBraceletDialog } from './components/register-bracelet-dialog';
