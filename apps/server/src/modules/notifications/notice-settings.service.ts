import {
  type Actor,
  type AlertNoticeSettingsResponse,
  isChatChannel,
  type NoticeRecipient,
  type NotificationChannel,
  type NotificationView,
  organizationKindOf,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { messageLogService } from './message-log.service.js';
import { noticeDelivery, SITE_NOTICE_PUSH } from './notice-delivery.js';
import { noticeTestMessage } from './notification-texts.js';
import { auditService } from '../audit/audit.service.js';
import { chatChannelsService } from '../chat-channels/chat-channels.service.js';
import { noticeBucketsRepository } from './notice-buckets.repository.js';
import { notificationsRepository } from './notifications.repository.js';

async function groupFor(ctx: AppContext, actor: Actor, groupId: string, action: 'read' | 'write') {
  // Only owners and the group's managers choose who is woken at night (the permission table).
  const permission = action === 'read' ? 'noticeSettings:read' : 'noticeSettings:update';
  await accessService(ctx.db).require(actor, permission, 'group', groupId);
  return (await notificationsRepository(ctx.db).findGroup(groupId))!;
}

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

/** A staff member's phone number: undefined when not staff of the organisation, null when none. */
async function staffPhones(
  db: AppContext['db'],
  organizationId: string,
  userId: string,
): Promise<string | null | undefined> {
  const rows = await db.query<{ phone_number: string | null }>(
    `SELECT phone_number FROM users WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL
        AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP')`,
    [userId, organizationId],
  );
  return rows.length ? rows[0]!.phone_number : undefined;
}

export function noticeSettingsService(ctx: AppContext) {
  return {
    async getNoticeSettings(actor: Actor, groupId: string): Promise<AlertNoticeSettingsResponse> {
      const group = await groupFor(ctx, actor, groupId, 'read');
      const rows = await notificationsRepository(ctx.db).groupRecipients(groupId);
      return {
        groupId,
        groupName: group.name,
        clientId: group.organization_id,
        organizationKind: organizationKindOf(group.kind),
        publicHolidaysAsWeekdays: group.public_holidays_as_weekdays,
        recipients: rows.map((r) => ({
          ...(r.user_id ? { userId: r.user_id, userName: r.user_name ?? '' } : {}),
          ...(r.own_phone_number ? { phoneNumber: r.own_phone_number } : {}),
          ...(r.on_call ? { onCall: true as const } : {}),
          channel: r.channel,
          alertTypes: r.alert_types,
          schedule: r.schedule,
          order: r.step,
        })),
      };
    },

    async putNoticeSettings(
      actor: Actor,
      groupId: string,
      recipients: NoticeRecipient[],
      publicHolidaysAsWeekdays?: boolean,
    ): Promise<AlertNoticeSettingsResponse> {
      const group = await groupFor(ctx, actor, groupId, 'write');
      const userIds = recipients.flatMap((r) => (r.userId ? [r.userId] : []));
      const staff = await notificationsRepository(ctx.db).staffOf(group.organization_id, userIds);
      const chat = await chatChannelsService(ctx).configured(group.organization_id);
      const issues = recipients.flatMap((r, i) =>
        r.userId && !staff.has(r.userId)
          ? [
              {
                path: `body.recipients.${i}.userId`,
                message: `${r.userId} is not staff of this organisation`,
              },
            ]
          : isChatChannel(r.channel) && !chat.has(r.channel)
            ? [
                {
                  path: `body.recipients.${i}.channel`,
                  message: `${r.channel} is not set up for this organisation (/settings)`,
                },
              ]
            : [],
      );
      if (issues.length) {
        throw new ApiError(
          400,
          'VALIDATION_FAILED',
          issues.map((x) => `${x.path}: ${x.message}`).join('; '),
          issues,
        );
      }
      await ctx.db.transaction(async (tx) => {
        const txNotifications = notificationsRepository(tx);
        const before = (await txNotifications.groupRecipients(groupId)).map((r) => ({
          userId: r.user_id,
          phoneNumber: r.own_phone_number,
          ...(r.on_call ? { onCall: true } : {}),
          channel: r.channel,
          alertTypes: r.alert_types,
          schedule: r.schedule,
          order: r.step,
        }));
        await txNotifications.replaceRecipients(group.organization_id, groupId, recipients);
        const holidaysBefore = group.public_holidays_as_weekdays;
        const holidaysAfter = publicHolidaysAsWeekdays ?? holidaysBefore;
        if (holidaysAfter !== holidaysBefore)
          await txNotifications.setHolidaysAsWeekdays(groupId, holidaysAfter);
        // The audit entry keeps its list of recipients; a holiday change adds its before and after.
        const changedHolidays = holidaysAfter !== holidaysBefore;
        const entry = {
          organizationId: group.organization_id,
          actorId: actor.uid,
          targetId: groupId,
          before: changedHolidays
            ? { recipients: before, publicHolidaysAsWeekdays: holidaysBefore }
            : before,
          after: changedHolidays
            ? { recipients, publicHolidaysAsWeekdays: holidaysAfter }
            : recipients,
        };
        await auditService(tx).record({ ...entry, kind: 'noticeSettings.update' });
      });
      return noticeSettingsService(ctx).getNoticeSettings(actor, groupId);
    },

    /**
     * "Send a test": one SMS or call through the real provider (ctx.phone) to a staff member or a number,
     * logged in the notification log under the caller (who sees it there) before it leaves.
     */
    async sendNoticeTest(
      actor: Actor,
      groupId: string,
      body: {
        channel: NotificationChannel;
        userId?: string | undefined;
        phoneNumber?: string | undefined;
      },
    ) {
      const group = await groupFor(ctx, actor, groupId, 'write');
      let to = body.phoneNumber ?? null;
      if (body.userId) {
        const staff = await staffPhones(ctx.db, group.organization_id, body.userId);
        if (staff === undefined)
          throw invalid('body.userId', `${body.userId} is not staff of this organisation`);
        // A push goes to the staff member's subscribed browsers, whatever their number.
        if (body.channel === 'PUSH') to = body.userId;
        else if (!staff) throw invalid('body.userId', `${body.userId} has no phone number`);
        else to = staff;
      }
      if (!to) throw invalid('body.userId', 'a test push goes to a staff member: give userId');
      const delivery = noticeDelivery(ctx, ctx.phone);
      const text = noticeTestMessage(group.name);
      const logged = await messageLogService(ctx.db).log(
        {
          channel: body.channel,
          userId: actor.uid,
          organizationId: group.organization_id,
          recipient: to,
          provider: delivery.providerOf(body.channel),
          text,
        },
        ctx.now(),
      );
      const outcome = await delivery.deliver({
        channel: body.channel,
        to,
        text,
        organizationId: group.organization_id,
        notificationId: logged.id,
        push: SITE_NOTICE_PUSH,
      });
      await logged.settle(outcome, ctx.now());
      return {
        notificationId: logged.id,
        provider: delivery.providerOf(body.channel),
        status: outcome.status,
        error: outcome.error ?? null,
      };
    },

    /** Every SMS / call attempt on alerts the caller may see (staff only: it shows phone numbers). */
    async notificationLog(
      actor: Actor,
      q: { alertId?: string | undefined; page: number; pageSize: number },
    ): Promise<{
      notifications: NotificationView[];
      total: number;
      page: number;
      pageSize: number;
    }> {
      const { rows, total } = await notificationsRepository(ctx.db).listNotifications(
        actor,
        q.alertId,
        q.pageSize,
        (q.page - 1) * q.pageSize,
      );
      const covered = await noticeBucketsRepository(ctx.db).coveredAlerts(
        actor,
        rows.map((r) => r.id),
      );
      return {
        notifications: rows.map((r) => ({
          id: r.id,
          alertId: r.alert_id,
          siteHeatEventId: r.site_heat_event_id,
          channel: r.channel,
          recipient: r.recipient,
          userId: r.user_id,
          provider: r.provider,
          status: r.status,
          error: r.error,
          step: r.step,
          text: r.text,
          at: new Date(r.created_at).toISOString(),
          reason: r.reason,
          covers: covered
            .filter((c) => c.notification_id === r.id)
            .map((c) => ({
              alertId: c.alert_id,
              type: c.type,
              level: c.level,
              wearerName: c.wearer_name,
            })),
          waiting: r.policy?.waiting ?? null,
        })),
        total,
        page: q.page,
        pageSize: q.pageSize,
      };
    },
  };
}
