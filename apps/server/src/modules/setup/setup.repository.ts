import { TEST_ALERT_RULE } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface SetupCounts {
  groups: number;
  gateways: number;
  bracelets: number;
  wearers: number;
  pairing: number;
  recipients: number;
  testAlert: number;
}
export interface TestAlertRow {
  id: string;
  wearerId: string;
  openedAt: Date;
  noticesSent: number;
  confirmed: boolean;
}

// A notice that left for the alert: its own, or a grouped one naming it (notification_alerts).
const NOTICES_SENT = `(SELECT count(*)::int FROM notifications n
   WHERE (n.alert_id = a.id OR n.id IN (SELECT na.notification_id FROM notification_alerts na
                                         WHERE na.alert_id = a.id))
     AND n.status IN ('sent', 'delivered'))`;

/** The counts the setup checklist is computed from: one round trip over the organisation's rows. */
export function setupRepository(db: Queryable) {
  return {
    async counts(organizationId: string): Promise<SetupCounts> {
      const [row] = await db.query<SetupCounts>(
        `SELECT
           (SELECT count(*)::int FROM groups WHERE organization_id = $1) AS groups,
           (SELECT count(*)::int FROM gateways WHERE organization_id = $1) AS gateways,
           (SELECT count(*)::int FROM bracelets WHERE organization_id = $1) AS bracelets,
           (SELECT count(*)::int FROM users w WHERE w.organization_id = $1 AND w.deleted_at IS NULL
               AND (w.role IS NULL OR w.role = 'PERSONAL_SELF')) AS wearers,
           (SELECT count(*)::int FROM bracelets b JOIN users w ON w.id = b.wearer_id
             WHERE b.organization_id = $1 AND w.deleted_at IS NULL) AS pairing,
           (SELECT count(DISTINCT group_id)::int FROM group_alert_notice_settings
             WHERE organization_id = $1) AS recipients,
           (SELECT count(*)::int FROM alerts a
             WHERE a.organization_id = $1 AND a.cause ->> 'rule' = $2
               AND a.confirmed_at IS NOT NULL AND ${NOTICES_SENT} > 0) AS "testAlert"`,
        [organizationId, TEST_ALERT_RULE],
      );
      return row!;
    },

    async lastTestAlert(organizationId: string): Promise<TestAlertRow | null> {
      const rows = await db.query<TestAlertRow>(
        `SELECT a.id, a.wearer_id AS "wearerId", a.opened_at AS "openedAt",
                ${NOTICES_SENT} AS "noticesSent", a.confirmed_at IS NOT NULL AS confirmed
           FROM alerts a
          WHERE a.organization_id = $1 AND a.cause ->> 'rule' = $2
          ORDER BY a.opened_at DESC LIMIT 1`,
        [organizationId, TEST_ALERT_RULE],
      );
      return rows[0] ?? null;
    },
  };
}
