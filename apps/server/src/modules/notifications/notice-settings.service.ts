import {
  type Actor,
  type AlertNoticeSettingsResponse,
  type NoticeRecipient,
  type NotificationView,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { findGroup, groupRecipients, listNotifications, replaceRecipients, staffOf } from './notifications.repository.js';

async function groupFor(ctx: AppContext, actor: Actor, groupId: string, action: 'read' | 'write') {
  // Only owners and the group's managers choose who is woken at night (the permission table).
  const permission = action === 'read' ? 'noticeSettings:read' : 'noticeSettings:update';
  await accessService(ctx.db).require(actor, permission, 'group', groupId);
  return (await findGroup(ctx.db, groupId))!;
}

export async function getNoticeSettings(ctx: AppContext, actor: Actor, groupId: string): Promise<AlertNoticeSettingsResponse> {
  await groupFor(ctx, actor, groupId, 'read');
  const rows = await groupRecipients(ctx.db, groupId);
  return {
    groupId,
    recipients: rows.map((r) => ({
      ...(r.user_id ? { userId: r.user_id, userName: r.user_name ?? '' } : {}),
      ...(r.own_phone_number ? { phoneNumber: r.own_phone_number } : {}),
      channel: r.channel,
      alertTypes: r.alert_types,
      schedule: r.schedule,
      order: r.step,
    })),
  };
}

export async function putNoticeSettings(
  ctx: AppContext,
  actor: Actor,
  groupId: string,
  recipients: NoticeRecipient[],
): Promise<AlertNoticeSettingsResponse> {
  const group = await groupFor(ctx, actor, groupId, 'write');
  const userIds = recipients.flatMap((r) => (r.userId ? [r.userId] : []));
  const staff = await staffOf(ctx.db, group.organization_id, userIds);
  const issues = recipients.flatMap((r, i) =>
    r.userId && !staff.has(r.userId)
      ? [{ path: `body.recipients.${i}.userId`, message: `${r.userId} is not staff of this organisation` }]
      : [],
  );
  if (issues.length) {
    throw new ApiError(400, 'VALIDATION_FAILED', issues.map((x) => `${x.path}: ${x.message}`).join('; '), issues);
  }
  await ctx.db.transaction((tx) => replaceRecipients(tx, group.organization_id, groupId, recipients));
  return getNoticeSettings(ctx, actor, groupId);
}

/** Every SMS / call attempt on alerts the caller may see (staff only: it shows phone numbers). */
export async function notificationLog(
  ctx: AppContext,
  actor: Actor,
  q: { alertId?: string | undefined; page: number; pageSize: number },
): Promise<{ notifications: NotificationView[]; total: number; page: number; pageSize: number }> {
  const { rows, total } = await listNotifications(ctx.db, actor, q.alertId, q.pageSize, (q.page - 1) * q.pageSize);
  return {
    notifications: rows.map((r) => ({
      id: r.id,
      alertId: r.alert_id,
      channel: r.channel,
      recipient: r.recipient,
      userId: r.user_id,
      provider: r.provider,
      status: r.status,
      error: r.error,
      step: r.step,
      text: r.text,
      at: new Date(r.created_at).toISOString(),
    })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}
