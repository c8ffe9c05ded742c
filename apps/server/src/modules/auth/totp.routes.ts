import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  tokenPair,
  totpCodeBody,
  totpEnrolBody,
  totpSetupResponse,
  totpStatus,
  totpVerifyBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { authService } from './auth.service.js';
import { totpService } from './totp.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];
const refusals = { 400: errorBody, 401: errorBody, 409: errorBody, 429: errorBody };

/** The caller's own TOTP second factor, and the second step of a sign-in. */
export const totpRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const totp = totpService(ctx, authService(ctx).startSession);

  app.get(
    '/v2/auth/totp',
    {
      config: { permission: 'self:read' },
      schema: {
        tags,
        summary:
          'Whether the caller has a TOTP second factor, and whether their organisation requires one',
        security,
        response: { 200: totpStatus, 401: errorBody },
      },
    },
    (request) => totp.status(request.actor),
  );

  app.post(
    '/v2/auth/totp/setup',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary:
          'Start turning TOTP on: a new secret (shown this once) as an otpauth URI and QR code',
        security,
        response: { 200: totpSetupResponse, ...refusals },
      },
    },
    (request) => totp.setup(request.actor),
  );

  app.post(
    '/v2/auth/totp/enable',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: 'Turn TOTP on with a code from the app (after setup)',
        security,
        body: totpCodeBody,
        response: { 200: totpStatus, ...refusals },
      },
    },
    (request) => totp.enable(request.actor, request.body.code),
  );

  app.post(
    '/v2/auth/totp/disable',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: 'Turn TOTP off with a current code (not while the organisation requires it)',
        security,
        body: totpCodeBody,
        response: { 200: totpStatus, ...refusals },
      },
    },
    (request) => totp.disable(request.actor, request.body.code),
  );

  app.post(
    '/v2/auth/totp/enrol',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Enrol during sign-in when the organisation requires TOTP (challenge TOTP_ENROLMENT_REQUIRED)',
        body: totpEnrolBody,
        response: { 200: totpSetupResponse, ...refusals },
      },
    },
    (request) => totp.enrol(request.body.challenge),
  );

  app.post(
    '/v2/auth/totp/verify',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Complete a sign-in with the challenge and a TOTP code',
        body: totpVerifyBody,
        response: { 200: tokenPair, ...refusals },
      },
    },
    (request) => totp.verify(request.body.challenge, request.body.code),
  );
};
