import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountView,
  emailChangeBody,
  emailChangeConfirmBody,
  emailChangeConfirmed,
  emailChangeSent,
  errorBody,
  passwordChangeBody,
  phoneVerifyBody,
  phoneVerifyCodeBody,
  phoneVerifyCodeSent,
  sessionParams,
  sessionsResponse,
  signedOutResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { accountService } from './account.service.js';

const tags = ['Account'];
const security = [{ bearer: [] }];
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  429: errorBody,
};

/** /user/info: one's own account, for every role (self:read / self:update). */
export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const account = accountService(ctx);

  app.get(
    '/v2/user/account',
    {
      config: { permission: 'self:read' },
      schema: {
        tags,
        summary: "One's own account: name, address, phone number and whether each is verified",
        security,
        response: { 200: accountView, ...errors },
      },
    },
    (request) => account.view(request.actor),
  );

  app.post(
    '/v2/user/account/phone/code',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: `A 6-digit code by SMS to a new phone number (5 minutes); the number is saved only with it`,
        security,
        body: phoneVerifyCodeBody,
        response: { 200: phoneVerifyCodeSent, ...errors, 502: errorBody },
      },
    },
    (request) => account.sendPhoneCode(request.actor, request.body),
  );

  app.post(
    '/v2/user/account/phone/verify',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary: 'Save the phone number with the code it received (5 wrong codes end it)',
        security,
        body: phoneVerifyBody,
        response: { 200: accountView, ...errors },
      },
    },
    (request) => account.verifyPhone(request.actor, request.body),
  );

  app.post(
    '/v2/user/account/email/change',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary:
          'Mail a single-use link (60 minutes) to a new address; the address changes when it is opened',
        security,
        body: emailChangeBody,
        response: { 200: emailChangeSent, ...errors },
      },
    },
    (request) => account.requestEmailChange(request.actor, request.body),
  );

  app.post(
    '/v2/auth/emailChange/confirm',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          "Open an email-change link (/verify-email#token=): the new address becomes the account's",
        body: emailChangeConfirmBody,
        response: {
          200: emailChangeConfirmed,
          400: errorBody,
          404: errorBody,
          409: errorBody,
          410: errorBody,
        },
      },
    },
    (request) => account.confirmEmailChange(request.body.token),
  );

  app.post(
    '/v2/user/account/password',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary:
          "Change one's password (the current one required, 12+ characters); one's other sessions end",
        security,
        body: passwordChangeBody,
        response: { 200: signedOutResponse, ...errors },
      },
    },
    (request) => account.changePassword(request.actor, request.sessionId, request.body),
  );

  app.get(
    '/v2/user/sessions',
    {
      config: { permission: 'self:read' },
      schema: {
        tags,
        summary: "One's open sessions: device and browser, created, last used; this one marked",
        security,
        response: { 200: sessionsResponse, ...errors },
      },
    },
    async (request) => ({ sessions: await account.sessions(request.actor, request.sessionId) }),
  );

  app.delete(
    '/v2/user/sessions/:sessionId',
    {
      config: { permission: 'self:update' },
      schema: {
        tags,
        summary:
          "Sign out one of one's sessions (its live streams end at once); another person's is 404",
        security,
        params: sessionParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await account.endSession(request.actor, request.params.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v2/user/sessions/signOutEverywhere',
    {
      config: { permission: 'self:update', allowBeforeTerms: true },
      schema: {
        tags,
        summary:
          'Sign out everywhere: every refresh token revoked and every live stream ended at once, this session too',
        security,
        response: { 200: signedOutResponse, ...errors },
      },
    },
    (request) => account.endAllSessions(request.actor),
  );

  // The client (User-Agent) of every session a sign-in or refresh issues, for the list above.
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      !request.routeOptions.config.public ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    )
      return payload;
    if (!payload.includes('"refreshToken"')) return payload;
    const userAgent = request.headers['user-agent'];
    if (!userAgent) return payload;
    try {
      const token = (JSON.parse(payload) as { refreshToken?: unknown }).refreshToken;
      if (typeof token === 'string') await account.recordClient(token, userAgent);
    } catch (err) {
      request.log.warn({ err }, 'could not record the session client');
    }
    return payload;
  });
};
// The onSend hook applies to the sign-in routes registered elsewhere.
Object.assign(accountRoutes, { [Symbol.for('skip-override')]: true });
