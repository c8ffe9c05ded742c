import type { FastifyPluginAsync } from 'fastify';
import { refreshSession, signIn, signOut } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { authService } from './auth.service.js';

/** POST /v2/auth/signIn, /v2/auth/refresh, /v2/auth/signOut. */
export const authRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const auth = authService(ctx);

  serve(app, signIn, (req) => auth.signIn(req.body, req.ip));
  serve(app, refreshSession, (req) => auth.refresh(req.body.refreshToken));
  serve(app, signOut, (req) => auth.signOut(req.actor.uid, req.sessionId, req.body?.refreshToken));
};
