import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/client.js';

/** One channel's attempts over the look-back: `key` is the channel, or 'WEBHOOK:<endpoint id>'. */
export interface ChannelAttemptsRow {
  key: string;
  last_delivered_at: Date | null;
  last_failed_at: Date | null;
  last_failure_reason: string | null;
  failing_since: Date | null;
}

export interface WebhookChannelRow {
  id: string;
  url: string;
  description: string;
  enabled: boolean;
}

export interface OpenRunRow {
  id: string;
  channel_key: string;
  failing_since: Date;
  noticed_at: Date | null;
}

export interface OwnerRow {
  id: string;
  name: string;
  email: string | null;
  phone_number: string | null;
  locale: 'ja' | 'en';
}

/**
 * An attempt the provider took counts as delivered: sent, delivered, or queued with the provider's
 * id (Twilio answers before its status callback); withheld and unanswered ones are no attempt.
 */
const DELIVERED = `(n.status IN ('sent', 'delivered') OR (n.status = 'queued' AND n.provider_id IS NOT NULL))`;

/**
 * Per logged channel ($3), from the notification log since $2: each value is one index probe
 * (notifications_channel_health_idx, and notifications_channel_failed_idx for failures), so the
 * read does not grow with the log. The failing run starts at the first failure after the last
 * delivered attempt. A failure with no recipient never reached the provider (a staff member without
 * a phone number, nobody on call): the recipients are wrong, not the channel, so it is not counted.
 */
const LOGGED = `
  SELECT c.key, d.at AS last_delivered_at, f.at AS last_failed_at, f.reason AS last_failure_reason,
         r.at AS failing_since
    FROM unnest($3::text[]) AS c(key)
    LEFT JOIN LATERAL (
      SELECT n.created_at AS at FROM notifications n
       WHERE n.organization_id = $1 AND n.channel = c.key AND n.created_at > $2 AND ${DELIVERED}
       ORDER BY n.created_at DESC LIMIT 1) d ON true
    LEFT JOIN LATERAL (
      SELECT n.created_at AS at, n.error AS reason FROM notifications n
       WHERE n.organization_id = $1 AND n.channel = c.key AND n.created_at > $2 AND n.status = 'failed'
         AND n.recipient IS NOT NULL
       ORDER BY n.created_at DESC LIMIT 1) f ON true
    LEFT JOIN LATERAL (
      SELECT n.created_at AS at FROM notifications n
       WHERE n.organization_id = $1 AND n.channel = c.key AND n.status = 'failed'
         AND n.recipient IS NOT NULL AND n.created_at > GREATEST($2, COALESCE(d.at, '-infinity'::timestamptz))
       ORDER BY n.created_at LIMIT 1) r ON true
   WHERE d.at IS NOT NULL OR f.at IS NOT NULL`;

/**
 * Per webhook endpoint of the organisation, from its attempts since $2 (a 2xx is delivered; the
 * reason of a failure is its error, else its status code).
 */
const WEBHOOKS = `
  WITH a AS (
    SELECT 'WEBHOOK:' || d.endpoint_id AS key, COALESCE(wa.status_code BETWEEN 200 AND 299, false) AS ok,
           wa.at, COALESCE(wa.error, 'HTTP ' || wa.status_code::text) AS reason
      FROM webhook_endpoints e
      JOIN webhook_deliveries d ON d.endpoint_id = e.id
      JOIN webhook_attempts wa ON wa.delivery_id = d.id
     WHERE e.organization_id = $1 AND d.created_at > $2),
  s AS (SELECT key, max(at) FILTER (WHERE ok) AS last_ok FROM a GROUP BY key)
  SELECT s.key, s.last_ok AS last_delivered_at,
         max(a.at) FILTER (WHERE NOT a.ok) AS last_failed_at,
         (array_agg(a.reason ORDER BY a.at DESC) FILTER (WHERE NOT a.ok))[1] AS last_failure_reason,
         min(a.at) FILTER (WHERE NOT a.ok AND a.at > COALESCE(s.last_ok, '-infinity'::timestamptz))
           AS failing_since
    FROM s JOIN a ON a.key = s.key
   GROUP BY s.key, s.last_ok`;

export function channelHealthRepository(db: Queryable) {
  return {
    /**
     * Per channel: last delivered and failed attempt, the last failure's reason, and the run's start;
     * `channels`: the logged channels to read (the webhooks are every endpoint's). A channel with no
     * attempt since `since` has no row.
     */
    attempts: async (
      organizationId: string,
      since: Date,
      channels: readonly string[],
    ): Promise<ChannelAttemptsRow[]> => [
      ...(await db.query<ChannelAttemptsRow>(LOGGED, [organizationId, since, channels])),
      ...(await db.query<ChannelAttemptsRow>(WEBHOOKS, [organizationId, since])),
    ],

    /** The logged channels the organisation has set up for its notices (groups' recipients, families). */
    async configuredChannels(organizationId: string): Promise<string[]> {
      const rows = await db.query<{ channel: string }>(
        `SELECT channel FROM group_alert_notice_settings WHERE organization_id = $1
         UNION SELECT channel FROM family_notice_preferences WHERE organization_id = $1`,
        [organizationId],
      );
      return rows.map((r) => r.channel);
    },

    webhooks: (organizationId: string): Promise<WebhookChannelRow[]> =>
      db.query<WebhookChannelRow>(
        `SELECT id, url, description, enabled FROM webhook_endpoints
          WHERE organization_id = $1 ORDER BY created_at, id`,
        [organizationId],
      ),

    openRuns: (organizationId: string): Promise<OpenRunRow[]> =>
      db.query<OpenRunRow>(
        `SELECT id, channel_key, failing_since, noticed_at FROM channel_failures
          WHERE organization_id = $1 AND closed_at IS NULL`,
        [organizationId],
      ),

    /**
     * The organisations the sweep looks at: a failed attempt since `since`, or a run still open
     * (its recovery closes it). Of one organisation when given (tests).
     */
    async sweepCandidates(since: Date, organizationId: string | null): Promise<string[]> {
      const rows = await db.query<{ organization_id: string }>(
        `SELECT organization_id FROM notifications
          WHERE status = 'failed' AND created_at > $1 AND organization_id IS NOT NULL
            AND ($2::text IS NULL OR organization_id = $2)
         UNION
         SELECT e.organization_id FROM webhook_attempts wa
           JOIN webhook_deliveries d ON d.id = wa.delivery_id
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE wa.at > $1 AND (wa.status_code IS NULL OR wa.status_code NOT BETWEEN 200 AND 299)
            AND ($2::text IS NULL OR e.organization_id = $2)
         UNION
         SELECT organization_id FROM channel_failures
          WHERE closed_at IS NULL AND ($2::text IS NULL OR organization_id = $2)`,
        [since, organizationId],
      );
      return rows.map((r) => r.organization_id);
    },

    /** Opens the run; null when one is open already (another server's sweep, a second sweep). */
    async open(
      run: {
        organizationId: string;
        channel: string;
        webhookId: string | null;
        key: string;
        failingSince: Date;
        reason: string | null;
      },
      now: Date,
    ): Promise<string | null> {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO channel_failures (id, organization_id, channel, webhook_id, channel_key,
                                       failing_since, reason, opened_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (organization_id, channel_key) WHERE closed_at IS NULL DO NOTHING
         RETURNING id`,
        [
          randomUUID(),
          run.organizationId,
          run.channel,
          run.webhookId,
          run.key,
          run.failingSince,
          run.reason,
          now,
        ],
      );
      return rows[0]?.id ?? null;
    },

    async close(id: string, now: Date): Promise<void> {
      await db.query(
        'UPDATE channel_failures SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL',
        [id, now],
      );
    },

    /** Takes the run's notice for this sweep: true once, for one server. */
    async claimNotice(id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE channel_failures SET noticed_at = $2 WHERE id = $1 AND noticed_at IS NULL
         RETURNING id`,
        [id, now],
      );
      return rows.length > 0;
    },

    async runById(id: string): Promise<
      | {
          organization_id: string;
          channel: string;
          webhook_id: string | null;
          failing_since: Date;
          reason: string | null;
          time_zone: string;
        }
      | undefined
    > {
      const [row] = await db.query<{
        organization_id: string;
        channel: string;
        webhook_id: string | null;
        failing_since: Date;
        reason: string | null;
        time_zone: string;
      }>(
        `SELECT f.organization_id, f.channel, f.webhook_id, f.failing_since, f.reason, o.time_zone
           FROM channel_failures f JOIN organizations o ON o.id = f.organization_id WHERE f.id = $1`,
        [id],
      );
      return row;
    },

    /** The organisation's owners, who are told of a failing channel. */
    owners: (organizationId: string): Promise<OwnerRow[]> =>
      db.query<OwnerRow>(
        `SELECT id, name, email, phone_number, locale FROM users
          WHERE organization_id = $1 AND role = 'ORGANIZATION_OWNER' AND deleted_at IS NULL
          ORDER BY created_at, id`,
        [organizationId],
      ),
  };
}
