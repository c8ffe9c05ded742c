import type { AlertLevel, AlertType } from '@wearable/domain';
import type { Queryable } from '../db/client.js';
import type { AlertRecord } from './events.js';
import type { AlertCause } from './types.js';

const ALERT_COLUMNS = `id, organization_id AS "organizationId", group_id AS "groupId",
  wearer_id AS "wearerId", bracelet_id AS "braceletId", type, level, status,
  opened_at AS "openedAt", closed_at AS "closedAt", close_reason AS "closeReason",
  confirmed_by AS "confirmedBy", confirmed_at AS "confirmedAt", cause, notify,
  created_at AS "createdAt"`;

export interface NewAlert {
  id: string;
  organizationId: string;
  groupId: string | null;
  wearerId: string;
  braceletId: string | null;
  type: AlertType;
  level: AlertLevel;
  openedAt: Date;
  cause: AlertCause;
  notify: boolean;
}

/** Opens an alert unless one of this type is already open for the wearer (then null). */
export async function insertOpenAlert(tx: Queryable, a: NewAlert): Promise<AlertRecord | null> {
  const rows = await tx.query<AlertRecord>(
    `INSERT INTO alerts (id, organization_id, group_id, wearer_id, bracelet_id, type, level,
                         status, opened_at, cause, notify)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'OPEN', $8, $9::jsonb, $10)
     ON CONFLICT (wearer_id, type) WHERE status = 'OPEN' DO NOTHING
     RETURNING ${ALERT_COLUMNS}`,
    [
      a.id,
      a.organizationId,
      a.groupId,
      a.wearerId,
      a.braceletId,
      a.type,
      a.level,
      a.openedAt.toISOString(),
      JSON.stringify(a.cause),
      a.notify,
    ],
  );
  return rows[0] ?? null;
}

/** Closes the wearer's open alert of this type, if any. */
export async function closeOpenAlert(
  tx: Queryable,
  c: {
    wearerId: string;
    type: AlertType;
    at: Date;
    reason: 'recovered' | 'confirmed';
    confirmedBy?: string | null;
  },
): Promise<AlertRecord | null> {
  const rows = await tx.query<AlertRecord>(
    `UPDATE alerts SET status = 'CLOSED', closed_at = $3, close_reason = $4,
            confirmed_by = $5, confirmed_at = CASE WHEN $5::text IS NULL THEN NULL ELSE $3::timestamptz END
      WHERE wearer_id = $1 AND type = $2 AND status = 'OPEN'
      RETURNING ${ALERT_COLUMNS}`,
    [c.wearerId, c.type, c.at.toISOString(), c.reason, c.confirmedBy ?? null],
  );
  return rows[0] ?? null;
}

/** The alert, locked for this transaction. */
export async function findAlertForUpdate(
  tx: Queryable,
  alertId: string,
): Promise<AlertRecord | null> {
  const rows = await tx.query<AlertRecord>(
    `SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = $1 FOR UPDATE`,
    [alertId],
  );
  return rows[0] ?? null;
}
