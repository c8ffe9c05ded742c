import { z } from 'zod';
import { isoInstant } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { gatewayParams } from './fleet-devices.js';
import { phoneGatewaySettings } from './gateway.js';
import { normalizeSerial } from '../serials.js';

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

/** A wearer's id as the console and the phone send it. */
const wearerId = z.string().min(1).max(64);

/**
 * Who carries the phone (issue 34), chosen in the console's enrolment dialog: a wearer of the
 * organisation, or `null` for a shared phone, whose person is chosen on the phone after enrolment.
 */
export const phoneEnrolmentBody = z.strictObject({ wearerId: wearerId.nullable() });
export type PhoneEnrolmentBody = z.infer<typeof phoneEnrolmentBody>;

/**
 * Whose SOS and falls the phone sends, as the server decided it (one place: the bracelets service).
 * `serialNumber` is the bracelet the phone's own events are sent for: the phone's own bracelet
 * `PHONE-<gatewayId>`, paired to the wearer, or the wearer's own bracelet when they already wear one
 * (a wearer has one bracelet). A shared phone with nobody chosen yet has `wearer: null`.
 */
export const phoneCarrier = z.object({
  shared: z.boolean(),
  wearer: z.object({ id: z.string(), name: z.string() }).nullable(),
  serialNumber: z.string(),
});
export type PhoneCarrier = z.infer<typeof phoneCarrier>;

/** The serial number of a phone gateway's own bracelet, as stored (serials are kept normalised: serials.ts). */
export const phoneBraceletSerial = (gatewayId: string) =>
  normalizeSerial(`PHONE-${gatewayId}`.slice(0, 64));

/** POST /v2/gateway/{gatewayId}/enrolment: a fresh code, its expiry and the link the QR code holds. */
export const phoneEnrolmentResponse = z.object({
  code: z.string(),
  expiresAt: z.string(),
  /** `<origin>/phone#enrol=<code>`. */
  link: z.string(),
  /** PUBLIC_URL names the server's own machine: the link opens on no phone (the dialog says so). */
  localOnlyLinks: z.boolean(),
  /** Whose SOS the phone will send (the dialog says it plainly). */
  carrier: phoneCarrier,
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
  /** Who carries the phone; a shared phone with `wearer: null` asks its person first. */
  carrier: phoneCarrier,
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

/** GET /v2/phone/wearers: the people a shared phone may be carried by (its gateway's group's wearers). */
export const phoneWearersResponse = z.object({
  wearers: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PhoneWearersResponse = z.infer<typeof phoneWearersResponse>;

export const choosePhoneCarrierBody = z.strictObject({ wearerId });

/** POST /v2/phone/deliveryFailure: an SOS or fall the phone could not deliver, for staff to see. */
export const phoneDeliveryFailureBody = z.strictObject({
  type: z.enum(['SOS', 'FALL']),
  /** When the event happened on the phone. */
  at: isoInstant,
  /** Why (the server's refusal, HTTP status, or "no network"), as the phone saw it. */
  reason: z.string().trim().min(1).max(300),
});
export type PhoneDeliveryFailureBody = z.infer<typeof phoneDeliveryFailureBody>;

/** The error codes of the phone-gateway calls below. */
export const PHONE_CARRIER_ERRORS = {
  /** 409: the phone is carried by a named wearer; only staff change that (a new enrolment code). */
  notShared: 'PHONE_NOT_SHARED',
} as const;

const staff = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });
const phone = endpointsOf({ tags: ['Phone gateway'], errors: [400, 410, 429] });
/**
 * Calls of an enrolled phone: `Authorization: Gateway <gatewayId>:<credential>` (checked by the
 * handler, like the batches), no bearer token; scoped to that gateway and its organisation.
 */
const enrolledPhone = endpointsOf({ tags: ['Phone gateway'], errors: [400, 401, 404, 409, 429] });

export const createPhoneEnrolment = staff({
  method: 'POST',
  path: '/v2/gateway/{gatewayId}/enrolment',
  permission: 'gateway:manage',
  summary:
    'A one-time enrolment code (15 minutes) for a SMARTPHONE gateway, and the /phone link holding it; older unused codes of the gateway stop working',
  params: gatewayParams,
  body: phoneEnrolmentBody,
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

export const listPhoneWearers = enrolledPhone({
  method: 'GET',
  path: '/v2/phone/wearers',
  permission: 'public',
  summary:
    "A shared phone: the wearers it may be carried by (its gateway's group, or the organisation's when the gateway has none)",
  responses: { 200: phoneWearersResponse },
});

export const choosePhoneCarrier = enrolledPhone({
  method: 'PUT',
  path: '/v2/phone/carrier',
  permission: 'public',
  summary: 'A shared phone: who carries it now; its own bracelet is paired to that wearer',
  body: choosePhoneCarrierBody,
  responses: { 200: phoneCarrier },
});

export const reportPhoneDeliveryFailure = enrolledPhone({
  method: 'POST',
  path: '/v2/phone/deliveryFailure',
  permission: 'public',
  summary:
    'An SOS or fall the phone could not deliver (refused, or no network for too long): shown to staff on the gateway',
  body: phoneDeliveryFailureBody,
  responses: { 204: z.null() },
});
