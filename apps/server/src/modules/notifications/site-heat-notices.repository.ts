import { randomUUID } from 'node:crypto';
import type { NotificationChannel, NotificationStatus } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export function siteHeatNoticesRepository(db: Queryable) {
  return {
    /** One notice of a site heat change (no alert: `alert_id` NULL, `site_heat_event_id` set; step 1). */
    async insertSiteHeatAttempt(
      a: {
        organizationId: string;
        siteHeatEventId: string;
        channel: NotificationChannel;
        userId: string | null;
        recipient: string | null;
        provider: string;
        text: string;
      },
      status: NotificationStatus,
      at: Date,
      error: string | null,
    ): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, site_heat_event_id, step, channel, user_id, recipient,
                                provider, status, error, text, created_at, updated_at)
     VALUES ($1, $2, NULL, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
        [
          id,
          a.organizationId,
          a.siteHeatEventId,
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

    /** Whether this change was already notified (a replayed or doubled bus event sends nothing twice). */
    async siteHeatNotified(siteHeatEventId: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM notifications WHERE site_heat_event_id = $1 LIMIT 1',
        [siteHeatEventId],
      );
      return rows.length > 0;
    },

    /** The organisation's time zone and the group's name for the text. */
    async siteHeatNoticeContext(
      organizationId: string,
      groupId: string,
    ): Promise<{ time_zone: string; group_name: string } | undefined> {
      const [row] = await db.query<{ time_zone: string; group_name: string }>(
        `SELECT o.time_zone, g.name AS group_name FROM groups g JOIN organizations o ON o.id = g.organization_id
      WHERE g.id = $1 AND o.id = $2`,
        [groupId, organizationId],
      );
      return row;
    },
  };
}
