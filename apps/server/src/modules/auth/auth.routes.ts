import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBody,
  refreshBody,
  signInBody,
  signInResult,
  signOutBody,
  tokenPair,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { authService } from './auth.service.js';

const tags = ['Identity'];

/** POST /v2/auth/signIn, /v2/auth/refresh, /v2/auth/signOut. */
export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const auth = authService(ctx);

  app.post(
    '/v2/auth/signIn',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with e-mail and password (tokens, or a TOTP step: docs/api.md)',
        body: signInBody,
        response: { 200: signInResult, 400: errorBody, 401: errorBody, 429: errorBody },
      },
    },
    (request) => auth.signIn(request.body, request.ip),
  );

  app.post(
    '/v2/auth/refresh',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (the old one is revoked)',
        body: refreshBody,
        response: { 200: tokenPair, 400: errorBody, 401: errorBody },
      },
    },
    (request) => auth.refresh(request.body.refreshToken),
  );

  app.post(
    '/v2/auth/signOut',
    {
      config: { permission: 'self:update', allowBeforeTerms: true },
      schema: {
        tags,
        summary: 'End the session (and the given refresh token’s session)',
        security: [{ bearer: [] }],
        // No body at all arrives as null: sign-out of the current session only.
        body: signOutBody.nullish(),
        response: { 204: z.null(), 401: errorBody },
      },
    },
    async (request, reply) => {
      await auth.signOut(request.actor.uid, request.sessionId, request.body?.refreshToken);
      return reply.code(204).send(null);
    },
  );
};
