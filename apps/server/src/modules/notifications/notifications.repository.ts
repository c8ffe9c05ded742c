import { randomUUID } from 'node:crypto';
import {
  CHAT_CHANNELS,
  type Actor,
  type AlertLevel,
  type AlertType,
  type LoggedChannel,
  type NoticeReason,
  type NotificationChannel,
  type StaffNoticeChannel,
  type NotificationStatus,
  type WeeklySchedule,
} from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { siteScope, SqlParams, wearerScope } from '../../access/scope-sql.js';
import { keepingAlertFirsts } from './delivery.repository.js';

export interface RecipientRow {
  id: string;
  user_id: string | null;
  user_name: string | null;
  /** The stored number, or the staff member's phone number. */
  phone_number: string | null;
  own_phone_number: string | null;
  channel: NotificationChannel;
  alert_types: AlertType[];
  schedule: WeeklySchedule;
  step: number;
  /** "Whoever is on call" in the group's rota (user and number then null until resolved: on-call.service). */
  on_call: boolean;
  group_id: string | null;
  /** The group's "treat public holidays as weekdays" (absent: holidays count as the weekend). */
  holidays_as_weekdays?: boolean;
}

export interface NewRecipient {
  userId?: string | undefined;
  phoneNumber?: string | undefined;
  onCall?: true | undefined;
  channel: NotificationChannel;
  alertTypes: AlertType[];
  schedule: WeeklySchedule;
  order: number;
}

export interface AlertForNotice {
  id: string;
  /** Told to a family member (forFamily): no place and no console link, since they cannot open it. */
  family?: boolean;
  organization_id: string;
  group_id: string | null;
  type: AlertType;
  level: AlertLevel;
  status: 'OPEN' | 'CLOSED';
  confirmed_at: Date | string | null;
  opened_at: Date | string;
  notify: boolean;
  /** Null (both) on an alert of a device no wearer holds (issue 34): `device_serial` names it. */
  wearer_name: string | null;
  group_name: string | null;
  time_zone: string;
  wearer_id: string | null;
  device_serial: string | null;
  /** The place stored at the opening (jsonb), or null. */
  place: unknown;
  /** Why the alert fired (jsonb: rule and values), named in the text for man-down. */
  cause: unknown;
}

export interface Attempt {
  organizationId: string;
  alertId: string;
  step: number;
  channel: NotificationChannel;
  userId: string | null;
  recipient: string | null;
  provider: string;
  text: string;
  /** Why the notification policy sent or withheld it (null: a test message). */
  reason?: NoticeReason | null;
  /** The policy values the decision used (and a summary's count of waiting alerts). */
  policy?: Record<string, number> | null;
}

export interface NotificationRow {
  id: string;
  alert_id: string | null;
  site_heat_event_id: string | null;
  channel: LoggedChannel;
  recipient: string | null;
  user_id: string | null;
  provider: string;
  status: NotificationStatus;
  error: string | null;
  step: number;
  text: string;
  created_at: Date | string;
  reason: NoticeReason | null;
  policy: Record<string, number> | null;
}

/** A chat channel's recipient has no person and no number: its address is the channel (chatAddress). */
const CHAT_ADDRESS_SQL = `CASE WHEN s.channel IN (${CHAT_CHANNELS.map((c) => `'${c}'`).join(',')}) THEN 'chat:' || s.channel END`;

/** A recipient a group's notice settings name (family members' LINE is never one). */
export type StaffRecipientRow = RecipientRow & { channel: StaffNoticeChannel };

export function notificationsRepository(db: Queryable) {
  return {
    /** A group's recipients (the table's check keeps them to STAFF_NOTICE_CHANNELS: never LINE). */
    async groupRecipients(groupId: string): Promise<StaffRecipientRow[]> {
      return db.query<StaffRecipientRow>(
        `SELECT s.id, s.user_id, u.name AS user_name, COALESCE(s.phone_number, u.phone_number, ${CHAT_ADDRESS_SQL}) AS phone_number,
            s.phone_number AS own_phone_number, s.channel, s.alert_types, s.schedule, s.step,
            s.on_call, s.group_id, g.public_holidays_as_weekdays AS holidays_as_weekdays
       FROM group_alert_notice_settings s
       JOIN groups g ON g.id = s.group_id
       LEFT JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
      WHERE s.group_id = $1 AND (s.user_id IS NULL OR u.id IS NOT NULL)
      ORDER BY s.step, s.position`,
        [groupId],
      );
    },

    /**
     * Every group's recipients of the organisation, for an alert raised in no group (a device no
     * wearer holds, heard by a gateway of no group: issue 34). A number or staff member listed in
     * several groups is told once, at their earliest step.
     */
    async organizationRecipients(organizationId: string): Promise<RecipientRow[]> {
      const rows = await db.query<RecipientRow>(
        `SELECT s.id, s.user_id, u.name AS user_name, COALESCE(s.phone_number, u.phone_number, ${CHAT_ADDRESS_SQL}) AS phone_number,
            s.phone_number AS own_phone_number, s.channel, s.alert_types, s.schedule, s.step,
            s.on_call, s.group_id, g.public_holidays_as_weekdays AS holidays_as_weekdays
       FROM group_alert_notice_settings s
       JOIN groups g ON g.id = s.group_id
       LEFT JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
      WHERE s.organization_id = $1 AND (s.user_id IS NULL OR u.id IS NOT NULL)
      ORDER BY s.step, s.group_id, s.position`,
        [organizationId],
      );
      const seen = new Set<string>();
      return rows.filter((r) => {
        const key = `${r.on_call ? `on-call:${r.group_id}` : (r.user_id ?? r.phone_number)}|${r.channel}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },

    /** Replaces a group's recipients in one transaction. */
    async replaceRecipients(
      organizationId: string,
      groupId: string,
      recipients: NewRecipient[],
    ): Promise<void> {
      // Two replacements at once would each delete only the rows committed before them and both insert: the
      // group's row lock makes them take turns, so the list is exactly one request's (no doubled notices).
      await db.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [groupId]);
      await db.query('DELETE FROM group_alert_notice_settings WHERE group_id = $1', [groupId]);
      for (const [position, r] of recipients.entries()) {
        await db.query(
          `INSERT INTO group_alert_notice_settings
         (id, organization_id, group_id, user_id, phone_number, channel, alert_types, schedule, step, position,
          on_call)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11)`,
          [
            randomUUID(),
            organizationId,
            groupId,
            r.userId ?? null,
            r.phoneNumber ?? null,
            r.channel,
            JSON.stringify(r.alertTypes),
            JSON.stringify(r.schedule),
            r.order,
            position,
            r.onCall === true,
          ],
        );
      }
    },

    /** How the group's schedules read a public holiday (docs/on-call.md). */
    async setHolidaysAsWeekdays(groupId: string, asWeekdays: boolean): Promise<void> {
      await db.query('UPDATE groups SET public_holidays_as_weekdays = $2 WHERE id = $1', [
        groupId,
        asWeekdays,
      ]);
    },

    async findGroup(groupId: string): Promise<
      | {
          id: string;
          organization_id: string;
          name: string;
          kind: string;
          public_holidays_as_weekdays: boolean;
        }
      | undefined
    > {
      const [row] = await db.query<{
        id: string;
        organization_id: string;
        name: string;
        kind: string;
        public_holidays_as_weekdays: boolean;
      }>(
        `SELECT g.id, g.organization_id, g.name, o.kind, g.public_holidays_as_weekdays
           FROM groups g JOIN organizations o ON o.id = g.organization_id WHERE g.id = $1`,
        [groupId],
      );
      return row;
    },

    /** Of the given ids, those that are living staff of the organisation. */
    async staffOf(organizationId: string, userIds: string[]): Promise<Set<string>> {
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM users WHERE id = ANY($1::text[]) AND organization_id = $2 AND deleted_at IS NULL
        AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP')`,
        [userIds, organizationId],
      );
      return new Set(rows.map((r) => r.id));
    },

    async alertForNotice(alertId: string): Promise<AlertForNotice | undefined> {
      const [row] = await notificationsRepository(db).alertsForNotice([alertId]);
      return row;
    },

    /** The alerts as a notice names them, oldest first. */
    alertsForNotice(alertIds: readonly string[]): Promise<AlertForNotice[]> {
      return db.query<AlertForNotice>(
        `SELECT a.id, a.organization_id, a.group_id, a.type, a.level, a.status, a.confirmed_at, a.opened_at,
            a.notify, u.name AS wearer_name, g.name AS group_name, o.time_zone, a.wearer_id, a.place,
            a.cause, a.device_serial
       FROM alerts a LEFT JOIN users u ON u.id = a.wearer_id JOIN organizations o ON o.id = a.organization_id
       LEFT JOIN groups g ON g.id = a.group_id
      WHERE a.id = ANY($1::text[]) ORDER BY a.opened_at, a.id`,
        [alertIds],
      );
    },

    /**
     * Who already has an attempt of this alert at this step (user id, else the number): a notice
     * delivered again from the alert outbox (a server killed mid-send) skips them.
     */
    async attemptedAtStep(alertId: string, step: number): Promise<Set<string>> {
      const rows = await db.query<{ who: string }>(
        `SELECT DISTINCT COALESCE(user_id, recipient) AS who FROM notifications
          WHERE alert_id = $1 AND step = $2 AND COALESCE(user_id, recipient) IS NOT NULL`,
        [alertId, step],
      );
      return new Set(rows.map((r) => r.who));
    },

    async insertAttempt(
      a: Attempt,
      status: NotificationStatus,
      at: Date,
      error: string | null,
    ): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, step, channel, user_id, recipient, provider,
                                status, error, text, created_at, updated_at, reason, policy)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14::jsonb)`,
        [
          id,
          a.organizationId,
          a.alertId,
          a.step,
          a.channel,
          a.userId,
          a.recipient,
          a.provider,
          status,
          error,
          a.text,
          at,
          a.reason ?? null,
          a.policy ? JSON.stringify(a.policy) : null,
        ],
      );
      return id;
    },

    /** A queued message outside alert escalation (step 0, no alert). */
    async insertMessage(
      m: {
        channel: LoggedChannel;
        organizationId: string | null;
        userId: string | null;
        recipient: string;
        provider: string;
        text: string;
      },
      at: Date,
    ): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO notifications (id, organization_id, alert_id, step, channel, user_id, recipient, provider,
                                status, error, text, created_at, updated_at)
     VALUES ($1, $2, NULL, 0, $3, $4, $5, $6, 'queued', NULL, $7, $8, $8)`,
        [id, m.organizationId, m.channel, m.userId, m.recipient, m.provider, m.text, at],
      );
      return id;
    },

    /**
     * The provider's answer to the send: the status and, the first time each is reached, sent_at /
     * delivered_at / failed_at (a delivered message was sent too). A Twilio answer is usually 'queued'
     * or 'sent'; its status callback (recordProviderStatus) brings the delivery later. The same statement
     * keeps the alert's first notice / delivery times (keepingAlertFirsts).
     */
    async recordOutcome(
      id: string,
      outcome: { status: NotificationStatus; providerId?: string; error?: string },
      at: Date,
    ): Promise<void> {
      await db.query(
        keepingAlertFirsts(`UPDATE notifications SET status = $2::text, provider_id = $3, error = $4, updated_at = $5,
            sent_at = CASE WHEN $2::text IN ('sent', 'delivered') THEN COALESCE(sent_at, $5) ELSE sent_at END,
            delivered_at = CASE WHEN $2::text = 'delivered' THEN COALESCE(delivered_at, $5) ELSE delivered_at END,
            failed_at = CASE WHEN $2::text = 'failed' THEN COALESCE(failed_at, $5) ELSE failed_at END
      WHERE id = $1`),
        [id, outcome.status, outcome.providerId ?? null, outcome.error ?? null, at],
      );
    },

    /** The attempts on alerts the actor may see, and the messages (mails, codes) sent to the actor, newest first. */
    async listNotifications(
      actor: Actor,
      alertId: string | undefined,
      limit: number,
      offset: number,
    ): Promise<{ rows: NotificationRow[]; total: number }> {
      const p = new SqlParams();
      const alertScope = wearerScope(actor, p, {}, 'u', ['u.group_id', 'a.group_id']);
      const heatScope = siteScope(actor, p, 'she.organization_id', 'she.group_id');
      // A site heat notice is seen by staff who see its site; another message outside alert
      // escalation is the addressee's alone (it may be about their sign-in).
      let where = `((n.alert_id IS NOT NULL AND ${alertScope}) OR (she.id IS NOT NULL AND ${heatScope})
               OR (n.alert_id IS NULL AND n.user_id = ${p.add(actor.uid)}))`;
      if (alertId) {
        // A grouped message or a summary belongs to every alert it covered.
        const id = p.add(alertId);
        where += ` AND (n.alert_id = ${id} OR n.id IN (SELECT notification_id FROM notification_alerts WHERE alert_id = ${id}))`;
      }
      const from =
        'FROM notifications n LEFT JOIN alerts a ON a.id = n.alert_id LEFT JOIN users u ON u.id = a.wearer_id' +
        ' LEFT JOIN site_heat_events she ON she.id = n.site_heat_event_id';
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n ${from} WHERE ${where}`,
        p.values,
      );
      const rows = await db.query<NotificationRow>(
        `SELECT n.id, n.alert_id, n.site_heat_event_id, n.channel, n.recipient, n.user_id, n.provider, n.status, n.error, n.step, n.text,
            n.created_at, n.reason, n.policy ${from} WHERE ${where}
      ORDER BY n.created_at DESC, n.id LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`,
        p.values,
      );
      return { rows, total: count?.n ?? 0 };
    },
  };
}
