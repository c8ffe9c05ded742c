import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { gatewayParams } from './fleet-devices.js';
import { phoneGatewaySettings } from './gateway.js';

/**
 * Enrolling a phone as a SMARTPHONE gateway (docs/phone-gateway.md, "Enrolment"). Staff create a
 * one-time code (15 minutes, single use; a new one replaces the older unused ones); the phone opens
 * `<origin>/phone#enrol=<code>` (the code in the fragment, so it never reaches a server log) and
 * exchanges the code for the gateway's credential. The server keeps only the code's SHA-256.
 */

/** How long an enrolment code may be used. */
export const PHONE_ENROLMENT_TTL_MS = 15 * 60_000;

/** The fragment key of the enrolment link: `/phone#enrol=<code>`. */
export const PHONE_ENROL_FRAGMENT = 'enrol';

/** An enrolment code as the server issues it: base64url, 32 characters (24 random bytes). */
export const enrolmentCode = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{16,128}$/,
    'must be the code of an enrolment link (letters, digits, - and _)',
  );

/** POST /v2/gateway/{gatewayId}/enrolment: a fresh code, its expiry and the link the QR code holds. */
export const phoneEnrolmentResponse = z.object({
  code: z.string(),
  expiresAt: z.string(),
  /** `<origin>/phone#enrol=<code>`. */
  link: z.string(),
});
export type PhoneEnrolmentResponse = z.infer<typeof phoneEnrolmentResponse>;

export const enrolPhoneBody = z.strictObject({ code: enrolmentCode });
export type EnrolPhoneBody = z.infer<typeof enrolPhoneBody>;

/**
 * What the phone keeps (in IndexedDB) and shows. `credential` is the gateway's credential, new at each
 * enrolment: the server keeps only its hash, so it issues a fresh one, and whatever used the previous one
 * (an earlier phone) is signed out at its next send.
 */
export const enrolPhoneResponse = z.object({
  gatewayId: z.string(),
  credential: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  gatewayName: z.string(),
  /** The organisation's settings the phone follows (man-down); batch results carry them afterwards. */
  settings: phoneGatewaySettings,
});
export type EnrolPhoneResponse = z.infer<typeof enrolPhoneResponse>;

/** The error codes of POST /v2/phone/enrol (the body's `code`), for the phone's messages. */
export const ENROLMENT_ERRORS = {
  /** 400: no such code (mistyped, or its gateway was retired). */
  unknown: 'ENROLMENT_CODE_UNKNOWN',
  /** 410: already used once. */
  used: 'ENROLMENT_CODE_USED',
  /** 410: older than 15 minutes. */
  expired: 'ENROLMENT_CODE_EXPIRED',
  /** 410: staff created a newer code for the same gateway. */
  replaced: 'ENROLMENT_CODE_REPLACED',
  /** 429: too many tries from this address. */
  tooMany: 'TOO_MANY_ATTEMPTS',
} as const;

/**
 * What POST /gateway/v1/batches answers (401) once the gateway was retired or its credential rotated
 * or given to a newly enrolled phone: the phone is signed out and must be enrolled again.
 */
export const GATEWAY_SIGNED_OUT_CODE = 'GATEWAY_UNAUTHORIZED';

const staff = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });
const phone = endpointsOf({ tags: ['Phone gateway'], errors: [400, 410, 429] });

export const createPhoneEnrolment = staff({
  method: 'POST',
  path: '/v2/gateway/{gatewayId}/enrolment',
  permission: 'gateway:manage',
  summary:
    'A one-time enrolment code (15 minutes) for a SMARTPHONE gateway, and the /phone link holding it; older unused codes of the gateway stop working',
  params: gatewayParams,
  responses: { 201: phoneEnrolmentResponse },
});

export const enrolPhone = phone({
  method: 'POST',
  path: '/v2/phone/enrol',
  permission: 'public',
  summary:
    "Exchange an enrolment code for the gateway's credential (a fresh one: the previous credential is refused from now on)",
  body: enrolPhoneBody,
  responses: { 200: enrolPhoneResponse },
});
