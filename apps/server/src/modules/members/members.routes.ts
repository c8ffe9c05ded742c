import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeMemberRoleBody,
  errorBody,
  linkManagedGroupBody,
  memberResponse,
  membersQuery,
  membersResponse,
  removedResponse,
  removeMemberQuery,
  setManagedGroupsBody,
  uidParams,
  unlinkManagedGroupBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { membersService } from './members.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];
const refusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** The organisation's staff: list, role change, removal, group managers' groups. */
export const membersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const members = membersService(ctx);

  app.get(
    '/v2/user/organization/members',
    {
      config: { permission: 'member:read' },
      schema: {
        tags,
        summary:
          'The organisation’s staff, paged and searchable, with pending invitations (platform staff pass clientId)',
        security,
        querystring: membersQuery,
        response: { 200: membersResponse, ...refusals },
      },
    },
    (request) => members.listMembers(request.actor, request.query),
  );

  app.patch(
    '/v2/user/organization/members',
    {
      config: { permission: 'member:changeRole' },
      schema: {
        tags,
        summary: 'Change a staff member’s role (one you may grant; never the last owner’s)',
        security,
        body: changeMemberRoleBody,
        response: { 200: memberResponse, ...refusals },
      },
    },
    (request) => members.changeRole(request.actor, request.body),
  );

  app.delete(
    '/v2/user/organization/members',
    {
      config: { permission: 'member:remove' },
      schema: {
        tags,
        summary: 'Remove a staff member (sessions end at once; the organisation’s records stay)',
        security,
        querystring: removeMemberQuery,
        response: { 200: removedResponse, ...refusals },
      },
    },
    (request) => members.remove(request.actor, request.query.uid, request.query.clientId),
  );

  app.delete(
    '/v2/user/:uid/delete',
    {
      config: { permission: 'member:remove' },
      schema: {
        tags,
        summary: 'Remove a staff member by uid (as DELETE /v2/user/organization/members)',
        security,
        params: uidParams,
        response: { 200: removedResponse, ...refusals },
      },
    },
    (request) => members.remove(request.actor, request.params.uid),
  );

  app.patch(
    '/v2/user/:uid/group',
    {
      config: { permission: 'member:changeRole' },
      schema: {
        tags,
        summary: 'Set the groups a group manager manages',
        security,
        params: uidParams,
        body: setManagedGroupsBody,
        response: { 200: memberResponse, ...refusals },
      },
    },
    (request) => members.setGroups(request.actor, request.params.uid, request.body.groupIds),
  );

  app.post(
    '/v2/user/group/link',
    {
      config: { permission: 'member:changeRole' },
      schema: {
        tags,
        summary: 'Give a group manager one more group',
        security,
        body: linkManagedGroupBody,
        response: { 200: memberResponse, ...refusals },
      },
    },
    (request) => members.linkGroup(request.actor, request.body.uid, request.body.groupId),
  );

  app.post(
    '/v2/user/:uid/group/unlink',
    {
      config: { permission: 'member:changeRole' },
      schema: {
        tags,
        summary: 'Take one group from a group manager (never the last)',
        security,
        params: uidParams,
        body: unlinkManagedGroupBody,
        response: { 200: memberResponse, ...refusals },
      },
    },
    (request) => members.unlinkGroup(request.actor, request.params.uid, request.body.groupId),
  );
};
