import { randomUUID } from 'node:crypto';
import type {
  Actor,
  AlertLevel,
  AlertType,
  NoticeBucket,
  NotificationChannel,
  SiteHeatLevel,
} from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { alertScope, SqlParams } from '../../access/scope-sql.js';

/**
 * The notification policy's state (migration 021): one `notice_buckets` row per organisation,
 * recipient and channel (the group window, the hour of the cap), one `notice_items` row per alert
 * offered to a bucket (held, sent, capped, inhibited; when its reminder is due), and
 * `notification_alerts`, the alerts each logged notice covered.
 */

export interface BucketRow {
  id: string;
  organization_id: string;
  recipient_key: string;
  channel: NotificationChannel;
  user_id: string | null;
  recipient: string | null;
  last_sent_at: Date | string | null;
  due_at: Date | string | null;
  held: number;
  hour_started_at: Date | string | null;
  hour_sent: number;
  capped: number;
  summary_sent: boolean;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

export const toNoticeBucket = (r: BucketRow): NoticeBucket => ({
  channel: r.channel,
  lastSentAt: date(r.last_sent_at),
  dueAt: date(r.due_at),
  held: r.held,
  hourStartedAt: date(r.hour_started_at),
  hourSent: r.hour_sent,
  capped: r.capped,
  summarySent: r.summary_sent,
});

const BUCKET_COLUMNS = `id, organization_id, recipient_key, channel, user_id, recipient, last_sent_at, due_at,
  held, hour_started_at, hour_sent, capped, summary_sent`;

export type NoticeItemState = 'sent' | 'held' | 'capped' | 'summarised' | 'inhibited';

export interface DueReminder {
  bucket_id: string;
  alert_id: string;
  recipient_key: string;
  channel: NotificationChannel;
  last_notice_at: Date | string;
}

export interface CoveredAlertRow {
  notification_id: string;
  alert_id: string;
  type: AlertType;
  level: AlertLevel;
  wearer_name: string;
}

export function noticeBucketsRepository(db: Queryable) {
  return {
    /** The recipient's bucket on the channel, created if new, row-locked until the transaction ends. */
    async lockBucket(
      b: {
        organizationId: string;
        recipientKey: string;
        channel: NotificationChannel;
        userId: string | null;
        recipient: string | null;
      },
      at: Date,
    ): Promise<BucketRow> {
      await db.query(
        `INSERT INTO notice_buckets (id, organization_id, recipient_key, channel, user_id, recipient, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, recipient_key, channel) DO NOTHING`,
        [randomUUID(), b.organizationId, b.recipientKey, b.channel, b.userId, b.recipient, at],
      );
      const [row] = await db.query<BucketRow>(
        `SELECT ${BUCKET_COLUMNS} FROM notice_buckets
      WHERE organization_id = $1 AND recipient_key = $2 AND channel = $3 FOR UPDATE`,
        [b.organizationId, b.recipientKey, b.channel],
      );
      if (!row) throw new Error('notice bucket vanished');
      // Messages go to the number the recipient has now.
      if (b.recipient !== row.recipient) {
        await db.query('UPDATE notice_buckets SET recipient = $2 WHERE id = $1', [
          row.id,
          b.recipient,
        ]);
      }
      return { ...row, recipient: b.recipient };
    },

    /** Buckets whose window (or summary) is due, oldest first (of one organisation when given). */
    async dueBucketIds(now: Date, organizationId: string | null, limit = 50): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM notice_buckets WHERE due_at <= $1 AND ($3::text IS NULL OR organization_id = $3)
      ORDER BY due_at LIMIT $2`,
        [now, limit, organizationId],
      );
      return rows.map((r) => r.id);
    },

    /**
     * The bucket if it is still due, row-locked; null when another server holds it or has already
     * handled the window (its due_at is cleared in the same transaction as the message is recorded).
     */
    async claimDueBucket(id: string, now: Date): Promise<BucketRow | null> {
      const [row] = await db.query<BucketRow>(
        `SELECT ${BUCKET_COLUMNS} FROM notice_buckets WHERE id = $1 AND due_at <= $2 FOR UPDATE SKIP LOCKED`,
        [id, now],
      );
      return row ?? null;
    },

    async saveBucket(id: string, b: NoticeBucket, at: Date): Promise<void> {
      await db.query(
        `UPDATE notice_buckets SET last_sent_at = $2, due_at = $3, held = $4, hour_started_at = $5,
            hour_sent = $6, capped = $7, summary_sent = $8, updated_at = $9 WHERE id = $1`,
        [
          id,
          b.lastSentAt,
          b.dueAt,
          b.held,
          b.hourStartedAt,
          b.hourSent,
          b.capped,
          b.summarySent,
          at,
        ],
      );
    },

    /** Records where an alert stands in a bucket and when its reminder is due (null: none). */
    async putItem(i: {
      bucketId: string;
      alertId: string;
      organizationId: string;
      state: NoticeItemState;
      at: Date;
      repeatAt: Date | null;
    }): Promise<void> {
      await db.query(
        `INSERT INTO notice_items (bucket_id, alert_id, organization_id, state, last_notice_at, repeat_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (bucket_id, alert_id) DO UPDATE
       SET state = EXCLUDED.state, last_notice_at = EXCLUDED.last_notice_at, repeat_at = EXCLUDED.repeat_at`,
        [i.bucketId, i.alertId, i.organizationId, i.state, i.at, i.repeatAt],
      );
    },

    /** The bucket's alerts in these states, moved to `to` (the window's message covers them), oldest first. */
    async moveItems(
      bucketId: string,
      from: readonly NoticeItemState[],
      to: NoticeItemState,
    ): Promise<string[]> {
      const rows = await db.query<{ alert_id: string }>(
        `UPDATE notice_items SET state = $3 WHERE bucket_id = $1 AND state = ANY($2::text[])
     RETURNING alert_id`,
        [bucketId, from, to],
      );
      return rows.map((r) => r.alert_id);
    },

    /**
     * Items whose reminder is due (the alert may have been confirmed or closed since: the caller checks),
     * of one organisation when given.
     */
    dueReminders(now: Date, organizationId: string | null, limit = 50): Promise<DueReminder[]> {
      return db.query<DueReminder>(
        `SELECT i.bucket_id, i.alert_id, b.recipient_key, b.channel, i.last_notice_at
       FROM notice_items i JOIN notice_buckets b ON b.id = i.bucket_id
      WHERE i.repeat_at <= $1 AND ($3::text IS NULL OR i.organization_id = $3)
      ORDER BY i.repeat_at LIMIT $2`,
        [now, limit, organizationId],
      );
    },

    /** The item's reminder, locked, if it is still due (another sweep may have taken it). */
    async claimReminder(bucketId: string, alertId: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM notice_items WHERE bucket_id = $1 AND alert_id = $2 AND repeat_at <= $3
        FOR UPDATE SKIP LOCKED`,
        [bucketId, alertId, now],
      );
      return rows.length > 0;
    },

    /** No more reminders of this alert in this bucket (confirmed, closed, or the recipient gone). */
    async endReminder(bucketId: string, alertId: string) {
      await db.query(
        'UPDATE notice_items SET repeat_at = NULL WHERE bucket_id = $1 AND alert_id = $2',
        [bucketId, alertId],
      );
    },

    /** Reminders wait until `at` (a reminder offered before its repeat interval). */
    async delayReminder(bucketId: string, alertId: string, at: Date) {
      await db.query(
        'UPDATE notice_items SET repeat_at = $3 WHERE bucket_id = $1 AND alert_id = $2',
        [bucketId, alertId, at],
      );
    },

    /** The heat level of the site the wearer's bracelet reports through (its gateway), when known. */
    async siteHeatLevelOfAlert(alertId: string): Promise<SiteHeatLevel | null> {
      const [row] = await db.query<{ level: SiteHeatLevel }>(
        `SELECT s.level FROM alerts a
       JOIN bracelets b ON b.wearer_id = a.wearer_id
       JOIN site_heat_state s ON s.gateway_id = b.gateway_id
      WHERE a.id = $1`,
        [alertId],
      );
      return row?.level ?? null;
    },

    /** Records the alerts a logged notice covered. */
    async coverAlerts(notificationId: string, alertIds: readonly string[]): Promise<void> {
      if (!alertIds.length) return;
      await db.query(
        `INSERT INTO notification_alerts (notification_id, alert_id)
     SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [notificationId, alertIds],
      );
    },

    /**
     * The alerts each of these notices covered that the actor may see (a message to one recipient may
     * name people of several groups), oldest first.
     */
    coveredAlerts(actor: Actor, notificationIds: readonly string[]): Promise<CoveredAlertRow[]> {
      if (!notificationIds.length) return Promise.resolve([]);
      const p = new SqlParams();
      const ids = p.add(notificationIds);
      const scope = alertScope(actor, p);
      // A device no wearer holds (issue 34) is named by its serial.
      return db.query<CoveredAlertRow>(
        `SELECT na.notification_id, a.id AS alert_id, a.type, a.level,
            COALESCE(u.name, a.device_serial) AS wearer_name
       FROM notification_alerts na JOIN alerts a ON a.id = na.alert_id LEFT JOIN users u ON u.id = a.wearer_id
      WHERE na.notification_id = ANY(${ids}::text[]) AND ${scope} ORDER BY a.opened_at, a.id`,
        p.values,
      );
    },

    /** After a message covering several alerts was sent: each keeps its first notice / delivery time. */
    async keepCoveredFirsts(notificationId: string): Promise<void> {
      await db.query(
        `UPDATE alerts a SET first_notice_at = LEAST(a.first_notice_at, n.sent_at),
                         first_delivery_at = LEAST(a.first_delivery_at, n.delivered_at)
       FROM notification_alerts na JOIN notifications n ON n.id = na.notification_id
      WHERE na.notification_id = $1 AND a.id = na.alert_id AND a.id IS DISTINCT FROM n.alert_id
        AND (n.sent_at IS NOT NULL OR n.delivered_at IS NOT NULL)`,
        [notificationId],
      );
    },
  };
}
