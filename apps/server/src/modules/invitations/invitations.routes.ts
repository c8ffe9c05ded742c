import type { FastifyPluginAsync } from 'fastify';
import {
  inspectInvitation,
  inviteMember,
  registerByInvitation,
  resendInvitation,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { invitationsService } from './invitations.service.js';

/** Invite, resend, and the public pair the invitation link uses: inspect, register. */
export const invitationsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const invitations = invitationsService(ctx);
  serve(app, inviteMember, (req) => invitations.invite(req.actor, req.body));
  serve(app, resendInvitation, (req) => invitations.resend(req.actor, req.body.invitationId));
  serve(app, inspectInvitation, (req) => invitations.inspect(req.body.token));
  serve(app, registerByInvitation, (req) => invitations.register(req.body));
};
