import {
  type AlertLevel,
  type AlertType,
  type ConfirmReason,
  HEAT_ALERT_TYPES,
} from '@wearable/domain';
import type { AlertPlace } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import type { AlertRecord } from '../../bus/events.js';
import type { AlertCause } from '../../engine/types.js';

export const ALERT_COLUMNS = `id, organization_id AS "organizationId", group_id AS "groupId",
  wearer_id AS "wearerId", bracelet_id AS "braceletId", type, level, status,
  opened_at AS "openedAt", closed_at AS "closedAt", close_reason AS "closeReason",
  confirmed_by AS "confirmedBy", confirmed_at AS "confirmedAt",
  confirm_reason AS "confirmReason", confirm_note AS "confirmNote", cause, notify,
  created_at AS "createdAt", place,
  device_serial AS "deviceSerial", gateway_id AS "gatewayId"`;

/**
 * The alert outbox kinds (modules/alert-outbox, migration 038) the opening enqueues in the same
 * statement: the live frame always, the notices only when the alert notifies.
 */
const openedKindsSql = (notify: string): string =>
  `CASE WHEN ${notify} THEN ARRAY['live', 'notice'] ELSE ARRAY['live'] END`;

export interface NewAlert {
  id: string;
  organizationId: string;
  groupId: string | null;
  wearerId: string;
  braceletId: string | null;
  type: AlertType;
  level: AlertLevel;
  openedAt: Date;
  /**
   * When this server raises it (the app's clock at the write): `created_at`. Later than `openedAt` when the data
   * reached the server late (a gateway that was offline, a replayed history); the response-time figures run
   * from the later of the two.
   */
  raisedAt: Date;
  cause: AlertCause;
  notify: boolean;
  /** Where the wearer was at the opening (EMERGENCY and CRITICAL alerts), else null. */
  place?: AlertPlace | null;
}

/**
 * Opens an alert unless one of this type is already open for the wearer (then null). While staff snooze
 * the type for this wearer it is recorded with notify false (no SMS, call or escalation) and its snooze.
 * In the same statement it enqueues what must follow the opening (the alert outbox, migration 038):
 * its live frame, and its notices when it notifies. Whichever server is alive delivers them
 * (modules/alert-outbox), so a process killed right after the commit loses none.
 */
async function insertOpenAlert(tx: Queryable, a: NewAlert): Promise<AlertRecord | null> {
  const rows = await tx.query<AlertRecord>(
    // A snooze of this wearer's type covering the opening (alert_snoozes): recorded, not notified.
    `WITH snooze AS (
       SELECT id FROM alert_snoozes
        WHERE wearer_id = $4 AND alert_type = $6 AND created_at <= $8::timestamptz AND until > $8::timestamptz
          AND (ended_at IS NULL OR ended_at > $8::timestamptz)
        ORDER BY created_at DESC LIMIT 1),
     opened AS (
       INSERT INTO alerts (id, organization_id, group_id, wearer_id, bracelet_id, type, level,
                           status, opened_at, cause, notify, snooze_id, place, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'OPEN', $8, $9::jsonb,
               $10::boolean AND NOT EXISTS (SELECT 1 FROM snooze), (SELECT id FROM snooze), $11::jsonb,
               $12::timestamptz)
       ON CONFLICT (wearer_id, type) WHERE status = 'OPEN' DO NOTHING
       RETURNING ${ALERT_COLUMNS}),
     queued AS (
       INSERT INTO alert_outbox (alert_id, kind, organization_id)
       SELECT o.id, k, o."organizationId"
         FROM opened o CROSS JOIN LATERAL unnest(${openedKindsSql('o.notify')}) AS k)
     SELECT * FROM opened`,
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
      a.place ? JSON.stringify(a.place) : null,
      a.raisedAt.toISOString(),
    ],
  );
  return rows[0] ?? null;
}

/** Closes the wearer's open alert of this type because its condition cleared, if one is open. */
async function closeOpenAlert(
  tx: Queryable,
  c: { wearerId: string; type: AlertType; at: Date; reason: 'recovered' },
): Promise<AlertRecord | null> {
  const rows = await tx.query<AlertRecord>(
    `UPDATE alerts SET status = 'CLOSED', closed_at = $3, close_reason = $4
      WHERE wearer_id = $1 AND type = $2 AND status = 'OPEN'
      RETURNING ${ALERT_COLUMNS}`,
    [c.wearerId, c.type, c.at.toISOString(), c.reason],
  );
  return rows[0] ?? null;
}

/**
 * Records a confirmation on every alert among `ids` nobody has confirmed yet, in one statement:
 * an open one also closes (reason confirmed); a closed one keeps its closing. `wasOpen` tells
 * which. Rows are locked by the UPDATE, so two staff confirming at once record one of them.
 */
async function recordConfirmations(
  tx: Queryable,
  ids: string[],
  c: {
    userId: string;
    at: Date;
    reason: ConfirmReason | null;
    note: string | null;
    procedureSteps?: string[] | null;
  },
): Promise<(AlertRecord & { wasOpen: boolean })[]> {
  return tx.query<AlertRecord & { wasOpen: boolean }>(
    `WITH target AS (
       SELECT id AS target_id, status = 'OPEN' AS was_open FROM alerts
        WHERE id = ANY($1::text[]) AND confirmed_at IS NULL
        FOR UPDATE)
     UPDATE alerts a
        SET status = 'CLOSED',
            closed_at = CASE WHEN t.was_open THEN $2::timestamptz ELSE a.closed_at END,
            close_reason = CASE WHEN t.was_open THEN 'confirmed' ELSE a.close_reason END,
            confirmed_by = $3, confirmed_at = $2::timestamptz, confirm_reason = $4, confirm_note = $5,
            procedure_steps = CASE WHEN a.type = ANY($7::text[]) THEN $6::text[] ELSE NULL END
       FROM target t
      WHERE a.id = t.target_id
      RETURNING ${ALERT_COLUMNS}, t.was_open AS "wasOpen"`,
    [
      ids,
      c.at.toISOString(),
      c.userId,
      c.reason,
      c.note,
      c.procedureSteps?.length ? c.procedureSteps : null,
      [...HEAT_ALERT_TYPES],
    ],
  );
}

/** The alert as the engine emitted it (another server's alert event carries only its id). */
async function findAlert(db: Queryable, alertId: string): Promise<AlertRecord | null> {
  const rows = await db.query<AlertRecord>(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = $1`, [
    alertId,
  ]);
  return rows[0] ?? null;
}

/** The alerts the engine opens, closes and staff confirm, in the caller's transaction `tx`. */
export function alertWritesRepository(tx: Queryable) {
  return {
    insertOpen: (a: NewAlert) => insertOpenAlert(tx, a),
    closeOpen: (c: Parameters<typeof closeOpenAlert>[1]) => closeOpenAlert(tx, c),
    recordConfirmations: (ids: string[], c: Parameters<typeof recordConfirmations>[2]) =>
      recordConfirmations(tx, ids, c),
    find: (alertId: string) => findAlert(tx, alertId),
  };
}
