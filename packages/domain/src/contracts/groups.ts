import { z } from 'zod';
import { displayName } from './organizations.js';
import { groupParams } from './notifications.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

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
  /** Who is on call now (names) until when, and who comes next; null without a rota or cover (docs/on-call.md). */
  onCall: z
    .object({ now: z.array(z.string()), until: z.string(), next: z.array(z.string()) })
    .nullable()
    .optional(),
});
export type GroupLiveState = z.infer<typeof groupLiveState>;
export const groupListResponse = z.object({ groups: z.array(groupLiveState) });
export type GroupListResponse = z.infer<typeof groupListResponse>;

/** POST /v2/group/{groupId}/wearers/move: move wearers (of the same organisation) into this group, all or nothing. */
export const moveWearersBody = z.strictObject({ uids: z.array(idParam).min(1).max(1000) });
export const moveWearersResponse = z.object({ groupId: z.string(), moved: z.number().int() });

const fleet = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });
const CONFLICT = [...BEARER_ERRORS, 409] as const;

export const createGroup = fleet({
  method: 'POST',
  path: '/v2/group',
  permission: 'group:manage',
  summary: 'Create a group',
  body: createGroupBody,
  errors: CONFLICT,
  responses: { 201: groupView },
});

export const renameGroup = fleet({
  method: 'PATCH',
  path: '/v2/group/{groupId}',
  permission: 'group:manage',
  summary: 'Rename a group',
  params: groupParams,
  body: renameGroupBody,
  errors: CONFLICT,
  responses: { 200: groupView },
});

export const deleteGroup = fleet({
  method: 'DELETE',
  path: '/v2/group/{groupId}',
  permission: 'group:manage',
  summary: 'Delete a group (409 GROUP_NOT_EMPTY while it has wearers)',
  params: groupParams,
  errors: CONFLICT,
  responses: { 204: z.null() },
});

export const listGroups = fleet({
  method: 'GET',
  path: '/v2/client/{clientId}/groups',
  permission: 'group:read',
  summary: 'Groups with their live state: wearers, not worn, offline, open alerts, gateways',
  params: z.object({ clientId: idParam }),
  responses: { 200: groupListResponse },
});

export const moveWearers = fleet({
  method: 'POST',
  path: '/v2/group/{groupId}/wearers/move',
  permission: 'wearer:manage',
  summary: 'Move wearers of the same organisation into this group (all or nothing)',
  params: groupParams,
  body: moveWearersBody,
  responses: { 200: moveWearersResponse },
});
