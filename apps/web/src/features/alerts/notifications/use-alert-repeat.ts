import type { AlertView } from '@wearable/domain';
import { useEffect } from 'react';
import { playAlertSound } from './alert-sound';
import { repeatOf } from './attention-rules';

/**
 * While `ringing` holds an alert of a repeating level and the tab can sound, its tone comes back every
 * `ALERT_TONES[level].repeatMs`; the first sound is the announcement's own.
 */
export function useAlertRepeat(ringing: readonly AlertView[], soundOn: boolean): void {
  const repeat = repeatOf(ringing);
  const level = repeat?.level ?? null;
  const everyMs = repeat?.everyMs ?? null;
  useEffect(() => {
    if (!soundOn || level === null || everyMs === null) return;
    const timer = window.setInterval(() => void playAlertSound(level), everyMs);
    return () => window.clearInterval(timer);
  }, [soundOn, level, everyMs]);
}
