import { z } from 'zod';
import { ORGANIZATION_ROLES, ROLES } from '../roles.js';
import { id, uidParams } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { pendingInvitation } from './invitations.js';

export const MEMBERS_PAGE_SIZE = 50;

/**
 * GET /v2/user/organization/members: the organisation's staff, a page at a time, optionally those whose
 * name or address contains `q`. Platform staff pass clientId; organisation staff see their own.
 */
export const membersQuery = z.object({
  clientId: id.optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(MEMBERS_PAGE_SIZE),
});
export type MembersQuery = z.output<typeof membersQuery>;
export const memberGroup = z.object({ id: z.string(), name: z.string() });
export const member = z.object({
  uid: z.string(),
  name: z.string(),
  mail: z.string().nullable(),
  role: z.enum(ROLES),
  groups: z.array(memberGroup),
});
export type Member = z.infer<typeof member>;
export const membersResponse = z.object({
  members: z.array(member),
  /** Staff matching `q` in all pages. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Invitations not yet used (matching `q`), newest first; they are on every page. */
  invitations: z.array(pendingInvitation),
});
export type MembersResponse = z.infer<typeof membersResponse>;

const groupIds = z.array(id).max(100);

/** PATCH /v2/user/organization/members: a staff member's new role (and groups, for a group manager). */
export const changeMemberRoleBody = z
  .object({
    uid: id,
    clientId: id.optional(),
    role: z.enum(ORGANIZATION_ROLES),
    groupIds: groupIds.default([]),
  })
  .superRefine((body, issue) => {
    if (body.role === 'ORGANIZATION_GROUP' && body.groupIds.length === 0) {
      issue.addIssue({
        code: 'custom',
        path: ['groupIds'],
        message: 'a group manager needs at least one group',
      });
    }
    if (body.role !== 'ORGANIZATION_GROUP' && body.groupIds.length > 0) {
      issue.addIssue({
        code: 'custom',
        path: ['groupIds'],
        message: 'only a group manager (ORGANIZATION_GROUP) has groups',
      });
    }
  });
export type ChangeMemberRoleBody = z.input<typeof changeMemberRoleBody>;

/** DELETE /v2/user/organization/members?uid=&clientId=: removes a staff member from the organisation. */
export const removeMemberQuery = z.object({ uid: id, clientId: id.optional() });

/** PATCH /v2/user/{uid}/group: every group a group manager manages (replaces the list). */
export const setManagedGroupsBody = z.object({
  groupIds: groupIds.min(1, 'a group manager needs at least one group'),
});
/** POST /v2/user/group/link: one more group for a group manager. */
export const linkManagedGroupBody = z.object({ uid: id, groupId: id });
/** POST /v2/user/{uid}/group/unlink: one group fewer (never the last). */
export const unlinkManagedGroupBody = z.object({ groupId: id });

/** What the member calls answer: the member as the staff list shows them now. */
export const memberResponse = member;
export const removedResponse = z.object({ uid: z.string(), removed: z.literal(true) });

const staff = endpointsOf({ tags: ['Identity'], errors: [...BEARER_ERRORS, 409] });

export const listMembers = staff({
  method: 'GET',
  path: '/v2/user/organization/members',
  permission: 'member:read',
  summary:
    'The organisation’s staff, paged and searchable, with pending invitations (platform staff pass clientId)',
  query: membersQuery,
  responses: { 200: membersResponse },
});

export const changeMemberRole = staff({
  method: 'PATCH',
  path: '/v2/user/organization/members',
  permission: 'member:changeRole',
  summary: 'Change a staff member’s role (one you may grant; never the last owner’s)',
  body: changeMemberRoleBody,
  responses: { 200: memberResponse },
});

export const removeMember = staff({
  method: 'DELETE',
  path: '/v2/user/organization/members',
  permission: 'member:remove',
  summary: 'Remove a staff member (sessions end at once; the organisation’s records stay)',
  query: removeMemberQuery,
  responses: { 200: removedResponse },
});

export const removeMemberByUid = staff({
  method: 'DELETE',
  path: '/v2/user/{uid}/delete',
  permission: 'member:remove',
  summary: 'Remove a staff member by uid (as DELETE /v2/user/organization/members)',
  params: uidParams,
  responses: { 200: removedResponse },
});

export const setManagedGroups = staff({
  method: 'PATCH',
  path: '/v2/user/{uid}/group',
  permission: 'member:changeRole',
  summary: 'Set the groups a group manager manages',
  params: uidParams,
  body: setManagedGroupsBody,
  responses: { 200: memberResponse },
});

export const linkManagedGroup = staff({
  method: 'POST',
  path: '/v2/user/group/link',
  permission: 'member:changeRole',
  summary: 'Give a group manager one more group',
  body: linkManagedGroupBody,
  responses: { 200: memberResponse },
});

export const unlinkManagedGroup = staff({
  method: 'POST',
  path: '/v2/user/{uid}/group/unlink',
  permission: 'member:changeRole',
  summary: 'Take one group from a group manager (never the last)',
  params: uidParams,
  body: unlinkManagedGroupBody,
  responses: { 200: memberResponse },
});
