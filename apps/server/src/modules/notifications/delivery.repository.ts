import type { NoticeReason, NotificationChannel, NotificationStatus } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/**
 * Delivery of alert notices: one `notifications` row per attempt (alert_id, channel, recipient,
 * status, created_at = queued, sent_at, delivered_at, failed_at) and every state a provider reported
 * in `notification_events`. The alert keeps the first sent_at / delivered_at of its attempts
 * (alerts.first_notice_at / first_delivery_at, for the response-time figures); the alert timeline
 * reads everything (attemptsOfAlert).
 */

/**
 * `updateAttempt` (an UPDATE of one notifications row) as one statement that also keeps its alert's
 * first_notice_at / first_delivery_at the earliest of its attempts' sent_at / delivered_at (LEAST skips
 * NULL). An attempt's times are set once, so the alert's are min() over its attempts whatever order the
 * reports arrive in. The alert row is written (and locked) only when a time moves earlier.
 */
export const keepingAlertFirsts = (updateAttempt: string) =>
  `WITH attempt AS (${updateAttempt} RETURNING alert_id, sent_at, delivered_at)
   UPDATE alerts a SET first_notice_at = LEAST(a.first_notice_at, attempt.sent_at),
                       first_delivery_at = LEAST(a.first_delivery_at, attempt.delivered_at)
     FROM attempt
    WHERE a.id = attempt.alert_id
      AND (a.first_notice_at IS DISTINCT FROM LEAST(a.first_notice_at, attempt.sent_at)
           OR a.first_delivery_at IS DISTINCT FROM LEAST(a.first_delivery_at, attempt.delivered_at))`;

/**
 * A later report never moves an attempt back: Twilio's callbacks may arrive out of order. A withheld
 * notice never left, so no report moves it.
 */
const RANK: Record<NotificationStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  failed: 2,
  withheld: 3,
};

export interface ProviderReport {
  /** The provider's id of the message or call (Twilio's MessageSid / CallSid). */
  providerId: string;
  status: NotificationStatus;
  /** The provider's own word (Twilio: delivered, undelivered, no-answer, ...). */
  providerStatus: string;
  error: string | null;
  at: Date;
}

export interface AttemptRow {
  id: string;
  step: number;
  channel: NotificationChannel;
  recipient: string | null;
  user_id: string | null;
  user_name: string | null;
  provider: string;
  provider_status: string | null;
  status: NotificationStatus;
  error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  delivered_at: Date | string | null;
  failed_at: Date | string | null;
  reason: NoticeReason | null;
}

export interface EscalationStateRow {
  current_step: number;
  upgraded: boolean;
  due_at: Date | string;
  done_at: Date | string | null;
  done_reason: string | null;
}

export interface AlertDeliveryTimes {
  alert_id: string;
  /** When the first attempt was made (queued). */
  first_attempt_at: Date | string;
  first_sent_at: Date | string | null;
  first_delivered_at: Date | string | null;
}

export function deliveryRepository(db: Queryable) {
  return {
    /**
     * Records one status report of a provider on its attempt, in the caller's transaction: the event
     * always, the attempt's status only forwards, each of sent_at / delivered_at / failed_at the first
     * time it is reached. Returns the attempt's id and alert, or null when no attempt has that id.
     */
    async recordProviderStatus(
      provider: string,
      r: ProviderReport,
    ): Promise<{ id: string; alertId: string | null } | null> {
      const [row] = await db.query<{
        id: string;
        alert_id: string | null;
        status: NotificationStatus;
      }>(
        'SELECT id, alert_id, status FROM notifications WHERE provider_id = $1 AND provider = $2 FOR UPDATE',
        [r.providerId, provider],
      );
      if (!row) return null;
      const status = RANK[r.status] > RANK[row.status] ? r.status : row.status;
      await db.query(
        keepingAlertFirsts(`UPDATE notifications SET status = $2::text, provider_status = $3, updated_at = $4,
            error = COALESCE($5, error),
            sent_at = CASE WHEN $6::text IN ('sent', 'delivered') THEN COALESCE(sent_at, $4) ELSE sent_at END,
            delivered_at = CASE WHEN $6::text = 'delivered' THEN COALESCE(delivered_at, $4) ELSE delivered_at END,
            failed_at = CASE WHEN $6::text = 'failed' THEN COALESCE(failed_at, $4) ELSE failed_at END
      WHERE id = $1`),
        [row.id, status, r.providerStatus, r.at, r.error, r.status],
      );
      await db.query(
        `INSERT INTO notification_events (notification_id, status, provider_status, error, at)
     VALUES ($1, $2, $3, $4, $5)`,
        [row.id, r.status, r.providerStatus, r.error, r.at],
      );
      return { id: row.id, alertId: row.alert_id };
    },

    /**
     * Every notification attempt of one alert, and every notice the policy withheld, oldest first; a
     * grouped message or a summary belongs to each alert it covered.
     */
    attemptsOfAlert(alertId: string): Promise<AttemptRow[]> {
      return db.query<AttemptRow>(
        `SELECT n.id, n.step, n.channel, n.recipient, n.user_id, u.name AS user_name, n.provider, n.provider_status,
            n.status, n.error, n.created_at, n.sent_at, n.delivered_at, n.failed_at, n.reason
       FROM notifications n LEFT JOIN users u ON u.id = n.user_id
      WHERE n.alert_id = $1
         OR n.id IN (SELECT notification_id FROM notification_alerts WHERE alert_id = $1)
      ORDER BY n.created_at, n.step, n.id`,
        [alertId],
      );
    },

    /** The alert's escalation timer (EMERGENCY only), if one was started. */
    async escalationOfAlert(alertId: string): Promise<EscalationStateRow | undefined> {
      const [row] = await db.query<EscalationStateRow>(
        'SELECT current_step, upgraded, due_at, done_at, done_reason FROM notification_escalations WHERE alert_id = $1',
        [alertId],
      );
      return row;
    },

    /** Per alert: its first attempt, first sent and first delivered notice (alerts never notified are absent). */
    deliveryTimesOfAlerts(alertIds: readonly string[]): Promise<AlertDeliveryTimes[]> {
      return db.query<AlertDeliveryTimes>(
        `SELECT alert_id, min(created_at) AS first_attempt_at, min(sent_at) AS first_sent_at,
            min(delivered_at) AS first_delivered_at
       FROM notifications WHERE alert_id = ANY($1::text[]) AND status <> 'withheld' GROUP BY alert_id`,
        [alertIds],
      );
    },
  };
}
