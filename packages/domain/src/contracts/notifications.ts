import { z } from 'zod';
import {
  ALERT_LEVELS,
  ALERT_TYPES,
  isChatChannel,
  LOGGED_CHANNELS,
  STAFF_NOTICE_CHANNELS,
} from '../alerts.js';
import { E164_PATTERN } from '../field-rules.js';
import { NOTICE_REASONS } from '../notice-policy.js';
import { ORGANIZATION_KINDS } from '../organization-kinds.js';
import { weeklySchedule } from '../schedules.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

const idParam = z.string().min(1).max(64);
/** E.164, as carriers expect it. */
export const phoneNumber = z.string().regex(E164_PATTERN, 'must be E.164, e.g. +819012345678');

/**
 * One recipient of a group's alerts; `order` is the escalation step (1 first). A chat channel (SLACK,
 * TEAMS, LINE_WORKS: the organisation's channel set up on /settings) names no person and no number.
 */
export const noticeRecipient = z
  .object({
    /** Staff of the organisation (their phone number is used), or ... */
    userId: idParam.optional(),
    /** ... a phone number outside the console, or ... */
    phoneNumber: phoneNumber.optional(),
    /** ... whoever is on call in the group's rota when the notice leaves (docs/on-call.md). */
    onCall: z.literal(true).optional(),
    channel: z.enum(STAFF_NOTICE_CHANNELS),
    alertTypes: z.array(z.enum(ALERT_TYPES)).min(1).max(ALERT_TYPES.length),
    schedule: weeklySchedule,
    order: z.number().int().min(1).max(10),
  })
  .refine(
    (r) =>
      isChatChannel(r.channel)
        ? r.userId === undefined && r.phoneNumber === undefined && r.onCall === undefined
        : [r.userId, r.phoneNumber, r.onCall].filter((x) => x !== undefined).length === 1,
    {
      message:
        'give exactly one of userId, phoneNumber or onCall (none for a chat channel: SLACK, TEAMS, LINE_WORKS)',
      path: ['userId'],
    },
  )
  .refine((r) => r.channel !== 'PUSH' || r.userId !== undefined || r.onCall === true, {
    message: 'PUSH goes to a staff member: give userId or onCall',
    path: ['userId'],
  });
export type NoticeRecipient = z.infer<typeof noticeRecipient>;

export const groupParams = z.object({ groupId: idParam });
/** PUT /v2/group/{groupId}/alertNoticeSettings: replaces the whole list. */
export const alertNoticeSettingsBody = z.object({
  recipients: z.array(noticeRecipient).max(100),
  /**
   * Japanese public holidays follow their weekday's row of each schedule (true), or the Sunday row
   * (false, the default: a holiday is staffed as a Sunday). Absent: unchanged. docs/on-call.md.
   */
  publicHolidaysAsWeekdays: z.boolean().optional(),
});
export type AlertNoticeSettingsBody = z.infer<typeof alertNoticeSettingsBody>;
export const alertNoticeSettingsResponse = z.object({
  groupId: z.string(),
  /** The group's name and organisation, so a page opened at /groups/{groupId}/... can name it and list its staff. */
  groupName: z.string(),
  clientId: z.string(),
  /** The organisation's kind: a new recipient starts with its alert types (KIND_NOTICE_TYPES). */
  organizationKind: z.enum(ORGANIZATION_KINDS),
  publicHolidaysAsWeekdays: z.boolean(),
  recipients: z.array(
    z.object({
      userId: z.string().optional(),
      userName: z.string().optional(),
      phoneNumber: z.string().optional(),
      onCall: z.literal(true).optional(),
      channel: z.enum(STAFF_NOTICE_CHANNELS),
      alertTypes: z.array(z.enum(ALERT_TYPES)),
      schedule: weeklySchedule,
      order: z.number().int(),
    }),
  ),
});
export type AlertNoticeSettingsResponse = z.infer<typeof alertNoticeSettingsResponse>;

/** `withheld`: the notification policy recorded a notice without sending it (its `reason` says why). */
export const NOTIFICATION_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'withheld'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** An alert a notice covered: a grouped message or a summary names several. */
export const noticeCoveredAlert = z.object({
  alertId: z.string(),
  type: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  wearerName: z.string(),
});
export type NoticeCoveredAlert = z.infer<typeof noticeCoveredAlert>;

/** Why the notification policy sent, held or did not send a notice (null: before the policy, or not an alert notice). */
export const noticeReason = z.enum(NOTICE_REASONS).nullable();

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
  reason: noticeReason,
  /** The alerts the notice covered, oldest first (empty for a mail or a test message). */
  covers: z.array(noticeCoveredAlert),
  /** A summary past the hourly cap: how many alerts wait in the console. */
  waiting: z.number().int().nullable(),
});
export type NotificationView = z.infer<typeof notificationView>;
export const notificationsResponse = z.object({
  notifications: z.array(notificationView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

/** POST /v2/group/{groupId}/alertNoticeSettings/test: one test message through the real provider. */
export const noticeTestBody = z
  .strictObject({
    /** A chat channel's test is POST /v2/organization/{organizationId}/chatChannels/{channel}/test. */
    channel: z.enum(['PHONE_CALL', 'SMS', 'PUSH']),
    /** A staff member of the organisation (their phone number) or ... */
    userId: idParam.optional(),
    /** ... a number outside the console. */
    phoneNumber: phoneNumber.optional(),
  })
  .refine((b) => (b.userId === undefined) !== (b.phoneNumber === undefined), {
    message: 'give exactly one of userId or phoneNumber',
    path: ['userId'],
  });
export type NoticeTestBody = z.infer<typeof noticeTestBody>;
export const noticeTestResponse = z.object({
  /** The notification log entry (GET /v2/notifications). */
  notificationId: z.string(),
  provider: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  error: z.string().nullable(),
});
export type NoticeTestResponse = z.infer<typeof noticeTestResponse>;

const notices = endpointsOf({ tags: ['Notifications'], errors: BEARER_ERRORS });

export const getNoticeSettings = notices({
  method: 'GET',
  path: '/v2/group/{groupId}/alertNoticeSettings',
  permission: 'noticeSettings:read',
  summary: "A group's alert notice recipients, with its name and organisation",
  params: groupParams,
  responses: { 200: alertNoticeSettingsResponse },
});

export const putNoticeSettings = notices({
  method: 'PUT',
  path: '/v2/group/{groupId}/alertNoticeSettings',
  permission: 'noticeSettings:update',
  summary: "Replace a group's alert notice recipients in one transaction; answers the stored list",
  params: groupParams,
  body: alertNoticeSettingsBody,
  responses: { 200: alertNoticeSettingsResponse },
});

export const sendNoticeTest = notices({
  method: 'POST',
  path: '/v2/group/{groupId}/alertNoticeSettings/test',
  permission: 'noticeSettings:update',
  summary:
    'Send one test SMS or call through the real provider; the outcome is in the notification log',
  params: groupParams,
  body: noticeTestBody,
  responses: { 200: noticeTestResponse },
});

export const listNotifications = notices({
  method: 'GET',
  path: '/v2/notifications',
  permission: 'notification:read',
  summary: 'The notification log the caller may see, newest first',
  query: notificationsQuery,
  responses: { 200: notificationsResponse },
});
