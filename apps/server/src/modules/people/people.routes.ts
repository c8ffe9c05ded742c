import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  associatedQuery,
  associatedResponse,
  createWearerRequest,
  errorBody,
  familyLinkRequest,
  familyLinkResponse,
  person,
  personOkResponse,
  personParams,
  removePhoneRequest,
  updateUserRequest,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { peopleService } from './people.service.js';

const tags = ['People'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Wearers, family members and profiles: the people calls of the specification (issue 6 item 5). */
export const peopleRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const people = peopleService(ctx);

  app.post(
    '/v2/user/wearer',
    {
      config: { permission: 'wearer:manage' },
      schema: {
        tags,
        summary: 'Add a wearer (name, birth date, group)',
        security,
        body: createWearerRequest,
        response: { 201: person, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await people.createWearer(request.actor, request.body)),
  );

  app.delete(
    '/v2/user/wearer/:uid',
    {
      config: { permission: 'wearer:manage' },
      schema: {
        tags,
        summary:
          'Remove a wearer; their readings and alerts stay with the organisation, the bracelet is freed',
        security,
        params: personParams,
        response: { 200: personOkResponse, ...errors },
      },
    },
    async (request) => {
      await people.removeWearer(request.actor, request.params.uid);
      return { ok: true as const };
    },
  );

  app.get(
    '/v2/user/lookup/associatedWithWearables',
    {
      config: { permission: 'member:read' },
      schema: {
        tags,
        summary: 'Family members linked to the wearers the caller reaches',
        security,
        querystring: associatedQuery,
        response: { 200: associatedResponse, ...errors },
      },
    },
    async (request) => ({
      users: await people.familyOfVisibleWearers(request.actor, request.query),
    }),
  );

  app.get(
    '/v2/user/:uid',
    {
      config: { permission: 'wearer:read' },
      schema: {
        tags,
        summary: 'A person the caller reaches: wearer, family member or staff',
        security,
        params: personParams,
        response: { 200: person, ...errors },
      },
    },
    (request) => people.get(request.actor, request.params.uid),
  );

  app.patch(
    '/v3/user/update',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: "Edit a wearer (uid: name, birth date, group) or one's own name",
        security,
        body: updateUserRequest,
        response: { 200: person, ...errors },
      },
    },
    (request) => people.update(request.actor, request.body),
  );

  app.delete(
    '/v2/user/:uid/phoneNumber',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: "Remove a person's phone number (in the organisation clientId)",
        security,
        params: personParams,
        body: removePhoneRequest,
        response: { 200: personOkResponse, ...errors },
      },
    },
    async (request) => {
      await people.removePhone(request.actor, request.params.uid, request.body.clientId);
      return { ok: true as const };
    },
  );

  for (const [path, linked] of [
    ['/v2/user/device/link/user', true],
    ['/v2/user/device/unlink/user', false],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: 'family:manage' },
        schema: {
          tags,
          summary: linked
            ? 'Link a family member (PERSONAL user) to a wearer'
            : 'Unlink a family member from a wearer',
          security,
          body: familyLinkRequest,
          response: { 200: familyLinkResponse, ...errors },
        },
      },
      (request) =>
        people.setFamilyLink(request.actor, request.body.uid, request.body.wearerUid, linked),
    );
  }
};
