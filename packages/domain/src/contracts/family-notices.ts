import { z } from 'zod';
import { FAMILY_NOTICE_CHANNELS } from '../family-notices.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

const uidParam = z.object({ uid: z.string().min(1).max(64) });

/** One watched wearer and how the family member chose to be told of their alerts (null: not told). */
export const familyNoticeView = z.object({
  uid: z.string(),
  name: z.string(),
  channel: z.enum(FAMILY_NOTICE_CHANNELS).nullable(),
});
export type FamilyNoticeView = z.infer<typeof familyNoticeView>;

export const familyNoticesResponse = z.object({
  wearers: z.array(familyNoticeView),
  /** Where the messages go: the account's own phone number and mail address (null: none set). */
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
  /** How many browsers of this account receive push notices (PUSH needs one). */
  pushSubscriptions: z.number().int().optional(),
  /** LINE (decision 0024): the organisation has a LINE official account set up; this account is linked to a LINE user. */
  line: z.object({ available: z.boolean(), linked: z.boolean() }).optional(),
});
export type FamilyNoticesResponse = z.infer<typeof familyNoticesResponse>;

/** PUT body: the channel to be told by, or null to stop. */
export const familyNoticeBody = z.strictObject({
  channel: z.enum(FAMILY_NOTICE_CHANNELS).nullable(),
});

const family = endpointsOf({ tags: ['Family notices'], errors: BEARER_ERRORS });

export const listFamilyNotices = family({
  method: 'GET',
  path: '/v3/user/familyNotices',
  permission: 'familyNotice:manage',
  summary:
    "The wearers the signed-in family member watches and how they are told of each one's EMERGENCY and CRITICAL alerts",
  responses: { 200: familyNoticesResponse },
});

export const updateFamilyNotice = family({
  method: 'PUT',
  path: '/v3/user/familyNotices/{uid}',
  permission: 'familyNotice:manage',
  summary:
    "Be told of one watched wearer's EMERGENCY and CRITICAL alerts by SMS or mail (to the account's own number or address) or by push (to its subscribed browsers), or no more",
  params: uidParam,
  body: familyNoticeBody,
  responses: { 200: familyNoticeView },
  errors: [...BEARER_ERRORS, 409],
});

export const familyLineCode = family({
  method: 'POST',
  path: '/v3/user/familyNotices/lineCode',
  permission: 'familyNotice:manage',
  summary:
    "A one-time code to send as a message to the organisation's LINE official account, which links that LINE user to oneself",
  responses: { 200: z.object({ code: z.string(), expiresAt: z.string() }) },
  errors: [...BEARER_ERRORS, 409],
});

export const deleteFamilyLine = family({
  method: 'DELETE',
  path: '/v3/user/familyNotices/line',
  permission: 'familyNotice:manage',
  summary: "Remove one's link to a LINE user (LINE choices fall back to none)",
  responses: { 204: z.null() },
});
