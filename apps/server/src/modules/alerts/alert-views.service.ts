import type { AlertView } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { toAlertView } from './alert-view.js';
import { ALERT_SELECT, type AlertRow } from './alerts.repository.js';

/** These alerts as the API shows them, read in the caller's transaction (the webhook outbox). */
export async function alertViewsByIds(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, AlertView>> {
  const rows = await db.query<AlertRow>(`${ALERT_SELECT} WHERE a.id = ANY($1::text[])`, [[...ids]]);
  return new Map(rows.map((r) => [r.id, toAlertView(r)]));
}
