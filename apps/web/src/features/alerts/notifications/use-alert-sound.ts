import { useSyncExternalStore } from 'react';
import { alertSoundState, subscribeAlertSound, type AlertSoundState } from './alert-sound';

/** The tab's sound state, redrawn when the AudioContext starts or stops. */
export function useAlertSoundState(): AlertSoundState {
  return useSyncExternalStore(subscribeAlertSound, alertSoundState, () => 'unsupported');
}
