import { z } from 'zod';
import { ALERT_TYPES, LOGGED_CHANNELS, NOTIFICATION_CHANNELS } from '../alerts.js';
import { weeklySchedule } from '../schedules.js';

const idParam = z.string().min(1).max(64);
/** E.164, as carriers expect it. */
export const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be E.164, e.g. +819012345678');

/** One recipient of a group's alerts; `order` is the escalation step (1 first). */
export const noticeRecipient = z
  .object({
    /** Staff of the organisation (their phone number is used), or ... */
    userId: idParam.optional(),
    /** ... a phone number outside the console. */
    phoneNumber: phoneNumber.optional(),
    channel: z.enum(NOTIFICATION_CHANNELS),
    alertTypes: z.array(z.enum(ALERT_TYPES)).min(1).max(ALERT_TYPES.length),
    schedule: weeklySchedule,
    order: z.number().int().min(1).max(10),
  })
  .refine((r) => (r.userId === undefined) !== (r.phoneNumber === undefined), {
    message: 'give exactly one of userId or phoneNumber',
    path: ['userId'],
  });
export type NoticeRecipient = z.infer<typeof noticeRecipient>;

export const groupParams = z.object({ groupId: idParam });
/** PUT /v2/group/{groupId}/alertNoticeSettings: replaces the whole list. */
export const alertNoticeSettingsBody = z.object({ recipients: z.array(noticeRecipient).max(100) });
export type AlertNoticeSettingsBody = z.infer<typeof alertNoticeSettingsBody>;
export const alertNoticeSettingsResponse = z.object({
  groupId: z.string(),
  /** The group's name and organisation, so a page opened at /groups/{groupId}/... can name it and list its staff. */
  groupName: z.string(),
  clientId: z.string(),
  recipients: z.array(
    z.object({
      userId: z.string().optional(),
      userName: z.string().optional(),
      phoneNumber: z.string().optional(),
      channel: z.enum(NOTIFICATION_CHANNELS),
      alertTypes: z.array(z.enum(ALERT_TYPES)),
      schedule: weeklySchedule,
      order: z.number().int(),
    }),
  ),
});
export type AlertNoticeSettingsResponse = z.infer<typeof alertNoticeSettingsResponse>;

export const NOTIFICATION_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** GET /v2/notifications?alertId=&page=: every attempt, newest first. */
export const notificationsQuery = z.object({
  alertId: idParam.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
/** A message in the log: an alert notice, or (alertId null, step 0) a mail or sign-in code to the caller. */
export const notificationView = z.object({
  id: z.string(),
  alertId: z.string().nullable(),
  /** A site heat notice: the change of level it told (alertId is then null). */
  siteHeatEventId: z.string().nullable().optional(),
  channel: z.enum(LOGGED_CHANNELS),
  recipient: z.string().nullable(),
  userId: z.string().nullable(),
  provider: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  error: z.string().nullable(),
  /** Escalation step that sent it (1 = first notice; 0 = not an alert notice). */
  step: z.number().int(),
  /** What was sent; sign-in links and codes are shown as [redacted]. */
  text: z.string(),
  at: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;
export const notificationsResponse = z.object({
  notifications: z.array(notificationView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;
