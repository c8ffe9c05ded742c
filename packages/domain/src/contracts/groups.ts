import { z } from 'zod';
import { NOTIFICATION_CHANNELS } from '../alerts.js';
import { phoneNumber } from './notifications.js';
import { displayName } from './organizations.js';
import { NOTIFICATION_STATUSES } from './notifications.js';

const idParam = z.string().min(1).max(64);

/** POST /v2/group: a new group of an organisation. */
export const createGroupBody = z.strictObject({ clientId: idParam, name: displayName });
/** PATCH /v2/group/{groupId}: rename. DELETE /v2/group/{groupId}: 409 GROUP_NOT_EMPTY while it has wearers. */
export const renameGroupBody = z.strictObject({ name: displayName });
export type CreateGroupBody = z.infer<typeof createGroupBody>;
export type RenameGroupBody = z.infer<typeof renameGroupBody>;
export const groupView = z.object({ id: z.string(), clientId: z.string(), name: z.string() });
export type GroupView = z.infer<typeof groupView>;

/** GET /v2/client/{clientId}/groups: the groups the caller may read, with their live state (/groups). */
export const groupLiveState = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  wearerCount: z.number().int(),
  /** Wearers whose latest reading says the bracelet is off the wrist. */
  notWornCount: z.number().int(),
  /** Wearers without a reading within the connection window (or never). */
  offlineCount: z.number().int(),
  openAlertCount: z.number().int(),
  gatewayCount: z.number().int(),
});
export type GroupLiveState = z.infer<typeof groupLiveState>;
export const groupListResponse = z.object({ groups: z.array(groupLiveState) });
export type GroupListResponse = z.infer<typeof groupListResponse>;

/** POST /v2/group/{groupId}/wearers/move: move wearers (of the same organisation) into this group, all or nothing. */
export const moveWearersBody = z.strictObject({ uids: z.array(idParam).min(1).max(1000) });
export const moveWearersResponse = z.object({ groupId: z.string(), moved: z.number().int() });

/** POST /v2/group/{groupId}/alertNoticeSettings/test: one test message through the real provider. */
export const noticeTestBody = z
  .strictObject({
    channel: z.enum(NOTIFICATION_CHANNELS),
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
