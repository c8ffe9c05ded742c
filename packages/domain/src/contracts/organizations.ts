import { z } from 'zod';
import { GATEWAY_KINDS } from '../gateway-kinds.js';
import { ORGANIZATION_KINDS } from '../organization-kinds.js';
import { GATEWAY_TYPES } from '../telemetry.js';
import { endpointsOf } from './endpoint.js';
import { MESSAGE_LOCALES } from './sign-in-methods.js';

const idParam = z.string().min(1).max(64);
/**
 * A display name: trimmed, 1..100 characters. A lone UTF-16 surrogate has no UTF-8 form (the database and the
 * audit log's JSON refuse it): a 400 here.
 */
export const displayName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/\p{Cs}/u.test(s), { message: 'must be valid Unicode text' });

/** GET /v2/client (platform roles: every organisation; others: their own). */
export const clientSummary = z.object({
  id: z.string(),
  name: z.string(),
  groupCount: z.number().int(),
  gatewayCount: z.number().int(),
  wearerCount: z.number().int(),
  openAlertCount: z.number().int(),
});
export const clientListResponse = z.object({ clients: z.array(clientSummary) });
export type ClientSummary = z.infer<typeof clientSummary>;

/** GET /v2/client/{id}. */
export const clientInfo = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The number phones offer beside 119 when an SOS cannot be delivered; null when not set. */
  emergencyPhone: z.string().nullable().optional(),
  /** What the organisation is (it picked its wearers' alert defaults). */
  kind: z.enum(ORGANIZATION_KINDS).optional(),
});
export type ClientInfo = z.infer<typeof clientInfo>;

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone, e.g. Asia/Tokyo' });

/**
 * POST /v2/client (platform owners): a new, empty organisation, and optionally the invitation of its
 * owner (an ORGANIZATION_OWNER invitation mail into it). Nothing is created when the owner's address
 * already has an account (409 EMAIL_TAKEN).
 */
export const createClientBody = z.strictObject({
  name: displayName,
  /** IANA time zone of the organisation's schedules; default Asia/Tokyo. */
  timeZone: timeZone.optional(),
  /** Construction site, care home or other (default): it picks the wearers' alert defaults. */
  kind: z
    .enum(ORGANIZATION_KINDS, { error: `kind must be one of ${ORGANIZATION_KINDS.join(', ')}` })
    .optional(),
  /** The organisation's first owner, invited by mail. */
  owner: z
    .strictObject({
      email: z.email().max(254),
      /** How the mail greets them; it also pre-fills their registration form. */
      name: z.string().trim().min(1).max(100).optional(),
      /** The mail's language (Japanese by default). */
      locale: z.enum(MESSAGE_LOCALES).optional(),
    })
    .optional(),
});
export type CreateClientBody = z.input<typeof createClientBody>;
/** POST /v2/client's answer: the organisation, and the address its owner's invitation went to. */
export const createdClient = clientInfo.extend({ invitedOwner: z.string().nullable() });
export type CreatedClient = z.infer<typeof createdClient>;
/** A telephone number a phone can dial: digits, an optional leading +, spaces and hyphens. */
export const emergencyPhoneNumber = z
  .string()
  .trim()
  .regex(
    /^\+?[0-9][0-9 -]{1,23}$/,
    'must be a telephone number (digits, an optional leading +, spaces or hyphens), e.g. 03-1234-5678',
  );
/** PATCH /v2/client/{id}: rename, change the time zone or the emergency number (null clears it). */
export const updateClientBody = z
  .strictObject({
    name: displayName.optional(),
    timeZone: timeZone.optional(),
    emergencyPhone: emergencyPhoneNumber.nullable().optional(),
  })
  .refine(
    (b) => b.name !== undefined || b.timeZone !== undefined || b.emergencyPhone !== undefined,
    {
      message: 'give name, timeZone or emergencyPhone',
      path: ['name'],
    },
  );
export const organizationParams = z.object({ id: idParam });

export const GATEWAY_STATUSES = ['online', 'offline'] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

/** A gateway as lists show it: its status from its last batch (online within GATEWAY_ONLINE_MS). */
export const gatewayListItem = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  type: z.enum(GATEWAY_TYPES),
  /** What it speaks: the product's batch or a vendor's format (gateway-kinds.ts). */
  kind: z.enum(GATEWAY_KINDS),
  serialNumber: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  status: z.enum(GATEWAY_STATUSES),
  /** Last batch received (null: never connected). */
  lastSeenAt: z.string().nullable(),
  /** When it went offline (= last batch + GATEWAY_ONLINE_MS); null while online or never seen. */
  offlineSince: z.string().nullable(),
  braceletCount: z.number().int(),
  /**
   * When an item it sent was last refused (its page lists them); null if none was in the last
   * week. Absent where the gateway is a webhook's subject.
   */
  lastRefusalAt: z.string().nullable().optional(),
  /**
   * What the gateway last said of itself in a batch's `status` (a phone's battery and app version);
   * null if it never did. Its last send is `lastSeenAt`.
   */
  report: z
    .object({
      at: z.string(),
      battery: z.number().int().nullable(),
      charging: z.boolean().nullable(),
      appVersion: z.string().nullable(),
    })
    .nullable(),
  /**
   * SMARTPHONE gateways: who carries the phone (issue 34): a wearer, or a shared phone and the person
   * chosen on it (null until chosen). Absent for other gateways.
   */
  phoneCarrier: z
    .object({
      shared: z.boolean(),
      wearer: z.object({ id: z.string(), name: z.string() }).nullable(),
    })
    .optional(),
  /** SMARTPHONE gateways: the last SOS or fall the phone could not deliver, as it reported it. */
  phoneFailure: z
    .object({ at: z.string(), type: z.enum(['SOS', 'FALL']), reason: z.string() })
    .nullable()
    .optional(),
});
export type GatewayListItem = z.infer<typeof gatewayListItem>;

/** GET /v2/client/{id}/overview: one organisation at a glance (/organization/{id}). */
export const clientOverview = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  groups: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      wearerCount: z.number().int(),
      openAlertCount: z.number().int(),
    }),
  ),
  gateways: z.array(gatewayListItem),
  /** Staff of the organisation (console accounts, not wearers). */
  memberCount: z.number().int(),
  wearerCount: z.number().int(),
  openAlertCount: z.number().int(),
});
export type ClientOverview = z.infer<typeof clientOverview>;

const organization = endpointsOf({ tags: ['Identity'], errors: [400, 401, 403, 404] });
const byId = z.object({ id: idParam });

export const listClients = organization({
  method: 'GET',
  path: '/v2/client',
  permission: 'organization:read',
  summary: 'Organisations the caller may see',
  errors: [401, 403],
  responses: { 200: clientListResponse },
});

/** The organisation with its groups: the one read of its group choices (members, people, profile). */
export const getClient = organization({
  method: 'GET',
  path: '/v2/client/{id}',
  permission: 'organization:read',
  summary: 'One organisation with its groups',
  params: byId,
  errors: [401, 404],
  responses: { 200: clientInfo },
});

export const createClient = organization({
  method: 'POST',
  path: '/v2/client',
  permission: 'organization:create',
  summary: 'Create an organisation (platform owners)',
  body: createClientBody,
  errors: [400, 401, 403, 409],
  responses: { 201: createdClient },
});

export const updateClient = organization({
  method: 'PATCH',
  path: '/v2/client/{id}',
  permission: 'organization:update',
  summary: 'Rename an organisation or change its time zone',
  params: byId,
  body: updateClientBody,
  responses: { 200: clientInfo },
});

export const getClientOverview = organization({
  method: 'GET',
  path: '/v2/client/{id}/overview',
  permission: 'organization:read',
  summary: 'One organisation at a glance: groups, gateways with status, members, open alerts',
  params: byId,
  errors: [401, 403, 404],
  responses: { 200: clientOverview },
});
