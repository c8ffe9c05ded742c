import type { Queryable } from '../../db/client.js';
import { escalationsRepository } from './escalations.repository.js';

/** Escalations as the alerts module ends them, in its transaction `tx`. */
export function escalationsService(tx: Queryable) {
  return {
    /**
     * In the confirmation's transaction (modules/alerts/confirmations.ts): confirmed alerts stop
     * escalating at once, whichever server the confirmation reached (the leader's next sweep finds
     * nothing due). Its own file, so the alerts module reaches it without the notifier's imports.
     */
    finishOnConfirm: (alertIds: readonly string[], at: Date): Promise<void> =>
      escalationsRepository(tx).finishEscalations(alertIds, at, 'confirmed'),
  };
}
