import { z } from 'zod';
import { ROLES } from '../roles.js';

/** A wearer's bracelet as a personal user sees it (spec section 3, selected device). */
export const userDevice = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  uid: z.string(),
  usingWearableId: z.string(),
  name: z.string(),
});
export type UserDevice = z.infer<typeof userDevice>;

/** GET /v2/user: exactly the specification's fields. */
export const userInfo = z.object({
  name: z.string(),
  devices: z.array(userDevice),
  gatewayId: z.string().nullable(),
  linkedUids: z.array(z.string()),
  mail: z.string().nullable(),
  mailVerified: z.boolean(),
  role: z.enum(ROLES),
  uid: z.string(),
  agreedTermsOfUse: z.boolean(),
  mediromOrganizationId: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const CURRENT_TERMS_VERSION = '2026-04-01';
export const termsOfUseBody = z.object({
  agreement: z.literal(true),
  version: z.string().min(1).max(32).default(CURRENT_TERMS_VERSION),
});
export type TermsOfUseBody = z.input<typeof termsOfUseBody>;
/** POST /v2/user/termsOfUse response: what was recorded. */
export const termsAgreement = z.object({
  version: z.string(),
  agreedAt: z.iso.datetime({ offset: true }),
});
export type TermsAgreement = z.infer<typeof termsAgreement>;
