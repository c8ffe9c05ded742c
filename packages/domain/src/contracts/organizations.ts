import { z } from 'zod';
import { GATEWAY_TYPES } from '../telemetry.js';
import { endpointsOf } from './endpoint.js';

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

/** POST /v2/client (platform owners): a new, empty organisation. */
export const createClientBody = z.strictObject({
  name: displayName,
  /** IANA time zone of the organisation's schedules; default Asia/Tokyo. */
  timeZone: timeZone.optional(),
});
/** PATCH /v2/client/{id}: rename (or change the time zone). */
export const updateClientBody = z
  .strictObject({ name: displayName.optional(), timeZone: timeZone.optional() })
  .refine((b) => b.name !== undefined || b.timeZone !== undefined, {
    message: 'give name or timeZone',
    path: ['name'],
  });
export const organizationParams = z.object({ id: idParam });

export const GATEWAY_STATUSES = ['online', 'offline'] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

/** A gateway as lists show it: its status from its last batch (online within GATEWAY_ONLINE_MS). */
export const gatewayListItem = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  type: z.enum(GATEWAY_TYPES),
  serialNumber: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  status: z.enum(GATEWAY_STATUSES),
  /** Last batch received (null: never connected). */
  lastSeenAt: z.string().nullable(),
  /** When it went offline (= last batch + GATEWAY_ONLINE_MS); null while online or never seen. */
  offlineSince: z.string().nullable(),
  braceletCount: z.number().int(),
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
  errors: [400, 401, 403],
  responses: { 201: clientInfo },
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
