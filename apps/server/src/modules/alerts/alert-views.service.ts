import type { AlertView } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { toAlertView } from './alert-view.js';
import { ALERT_SELECT, type AlertRow, alertsRepository } from './alerts.repository.js';

export type { AlertRow };

/**
 * Alerts read by other modules in their own transaction or connection, with no access check: the live
 * stream (which checks each reader of its frames itself) and the webhook outbox.
 */
export function alertViewsService(db: Queryable) {
  return {
    /** One alert's row by id. */
    row: (id: string): Promise<AlertRow | undefined> => alertsRepository(db).getAlert(id),
    /** These alerts as the API shows them. */
    async byIds(ids: readonly string[]): Promise<Map<string, AlertView>> {
      const rows = await db.query<AlertRow>(`${ALERT_SELECT} WHERE a.id = ANY($1::text[])`, [
        [...ids],
      ]);
      return new Map(rows.map((r) => [r.id, toAlertView(r)]));
    },
  };
}
