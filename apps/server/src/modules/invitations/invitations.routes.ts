import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  inspectInvitationBody,
  invitationPreview,
  inviteBody,
  inviteResponse,
  registerBody,
  resendInvitationBody,
  signInResult,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { invitationsService } from './invitations.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];
const refusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** POST /v2/user/invite, /v2/user/invitation/resend, /v2/user/invitation/inspect, /v2/user/register. */
export const invitationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const invitations = invitationsService(ctx);

  // family:manage is the widest permission an invitation needs (staff roles need member:invite, checked
  // by the service on the organisation); a role without it never invites anyone.
  app.post(
    '/v2/user/invite',
    {
      config: { permission: 'family:manage' },
      schema: {
        tags,
        summary:
          'Invite a staff member, platform staff or a family member (a role you may grant); mails a 7-day link',
        security,
        body: inviteBody,
        response: { 201: inviteResponse, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invitations.invite(request.actor, request.body)),
  );

  app.post(
    '/v2/user/invitation/resend',
    {
      config: { permission: 'family:manage' },
      schema: {
        tags,
        summary: 'Send a live invitation again with a new link (the old link stops working)',
        security,
        body: resendInvitationBody,
        response: { 201: inviteResponse, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invitations.resend(request.actor, request.body.invitationId)),
  );

  app.post(
    '/v2/user/invitation/inspect',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Who invited whom, for the registration page (or why the link cannot be used)',
        body: inspectInvitationBody,
        response: { 200: invitationPreview, 400: errorBody, 404: errorBody, 410: errorBody },
      },
    },
    (request) => invitations.inspect(request.body.token),
  );

  app.post(
    '/v2/user/register',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Complete an invitation (name, password, terms) and sign in',
        body: registerBody,
        response: {
          200: signInResult,
          400: errorBody,
          404: errorBody,
          409: errorBody,
          410: errorBody,
        },
      },
    },
    (request) => invitations.register(request.body),
  );
};
