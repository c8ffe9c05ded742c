import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createGroupBody,
  errorBody,
  groupListResponse,
  groupParams,
  groupView,
  id,
  moveWearersBody,
  moveWearersResponse,
  renameGroupBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { groupsService } from './groups.service.js';

const tags = ['Fleet'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Groups (/settings/groups, /groups) and the wearers in them. */
export const groupsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const groups = groupsService(ctx);

  app.post(
    '/v2/group',
    {
      config: { permission: 'group:manage' },
      schema: {
        tags,
        summary: 'Create a group',
        security,
        body: createGroupBody,
        response: { 201: groupView, ...errors, 409: errorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await groups.create(request.actor, request.body)),
  );

  app.patch(
    '/v2/group/:groupId',
    {
      config: { permission: 'group:manage' },
      schema: {
        tags,
        summary: 'Rename a group',
        security,
        params: groupParams,
        body: renameGroupBody,
        response: { 200: groupView, ...errors, 409: errorBody },
      },
    },
    (request) => groups.rename(request.actor, request.params.groupId, request.body.name),
  );

  app.delete(
    '/v2/group/:groupId',
    {
      config: { permission: 'group:manage' },
      schema: {
        tags,
        summary: 'Delete a group (409 GROUP_NOT_EMPTY while it has wearers)',
        security,
        params: groupParams,
        response: { 204: z.null(), ...errors, 409: errorBody },
      },
    },
    async (request, reply) => {
      await groups.remove(request.actor, request.params.groupId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v2/client/:clientId/groups',
    {
      config: { permission: 'group:read' },
      schema: {
        tags,
        summary: 'Groups with their live state: wearers, not worn, offline, open alerts, gateways',
        security,
        params: z.object({ clientId: id }),
        response: { 200: groupListResponse, ...errors },
      },
    },
    async (request) => ({
      groups: await groups.liveStates(request.actor, request.params.clientId),
    }),
  );

  app.post(
    '/v2/group/:groupId/wearers/move',
    {
      config: { permission: 'wearer:manage' },
      schema: {
        tags,
        summary: 'Move wearers of the same organisation into this group (all or nothing)',
        security,
        params: groupParams,
        body: moveWearersBody,
        response: { 200: moveWearersResponse, ...errors },
      },
    },
    (request) => groups.moveWearers(request.actor, request.params.groupId, request.body.uids),
  );
};
