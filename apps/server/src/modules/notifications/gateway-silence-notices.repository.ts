import { randomUUID } from 'node:crypto';
import type { NotificationChannel } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export function gatewaySilenceNoticesRepository(db: Queryable) {
  return {
    /** One notice of a gateway silence (no alert: `alert_id` NULL, `gateway_silence_id` set; step 1). */
    async insertSilenceAttempt(
      a: {
        organizationId: string;
        silenceId: string;
        channel: NotificationChannel;
        userId: string | null;
        recipient: string | null;
        provider: string;
        text: string;
      },
      status: 'queued' | 'failed',
      at: Date,
      error: string | null,
    ): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, gateway_silence_id, step, channel, user_id,
                                recipient, provider, status, error, text, created_at, updated_at)
     VALUES ($1, $2, NULL, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
        [
          id,
          a.organizationId,
          a.silenceId,
          a.channel,
          a.userId,
          a.recipient,
          a.provider,
          status,
          error,
          a.text,
          at,
        ],
      );
      return id;
    },

    /** Whether this silence was notified already (a second sweep sends nothing twice). */
    async silenceNotified(silenceId: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM notifications WHERE gateway_silence_id = $1 LIMIT 1',
        [silenceId],
      );
      return rows.length > 0;
    },

    /** The organisation's time zone and the group's name for the text. */
    async groupContext(
      groupId: string,
    ): Promise<{ time_zone: string; group_name: string } | undefined> {
      const [row] = await db.query<{ time_zone: string; group_name: string }>(
        `SELECT o.time_zone, g.name AS group_name FROM groups g JOIN organizations o ON o.id = g.organization_id
      WHERE g.id = $1`,
        [groupId],
      );
      return row;
    },

    /** The silence's message to this recipient covers an alert the silence inhibited. */
    async coverInhibited(
      silenceId: string,
      alertId: string,
      recipient: string,
      channel: NotificationChannel,
    ): Promise<void> {
      await db.query(
        `INSERT INTO notification_alerts (notification_id, alert_id)
     SELECT n.id, $2 FROM notifications n
      WHERE n.gateway_silence_id = $1 AND n.recipient = $3 AND n.channel = $4
     ON CONFLICT DO NOTHING`,
        [silenceId, alertId, recipient, channel],
      );
    },
  };
}
