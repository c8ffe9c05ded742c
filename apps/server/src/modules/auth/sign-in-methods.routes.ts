import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailLinkBody,
  emailLinkVerifyBody,
  errorBody,
  phoneCodeBody,
  phoneSignInBody,
  signInCodeAccepted,
  type SignInMethod,
  signInMethodsResponse,
  signInResult,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { authService } from './auth.service.js';
import { emailLinkService } from './email-link.service.js';
import { phoneCodeService } from './phone-code.service.js';

const tags = ['Identity'];
const refusals = { 400: errorBody, 403: errorBody, 429: errorBody };

/** GET /v2/auth/methods; email-link and phone-code sign-in (docs/api.md). Every route is public. */
export const signInMethodsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  // Every method ends as password sign-in does: the tokens, or the TOTP step the account needs.
  const finish = authService(ctx).completeSignIn;
  const emailLink = emailLinkService(ctx, finish);
  const phone = phoneCodeService(ctx, finish);
  const offered = (method: SignInMethod) => {
    if (!ctx.config.signInMethods.includes(method))
      throw forbidden(`Sign-in by ${method} is turned off here`, 'METHOD_DISABLED');
  };

  app.get(
    '/v2/auth/methods',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The sign-in methods this server offers',
        response: { 200: signInMethodsResponse },
      },
    },
    () => ({
      methods: ctx.config.signInMethods,
      oidc: ctx.config.oidc ? { displayName: ctx.config.oidc.displayName } : null,
    }),
  );

  app.post(
    '/v2/auth/emailLink',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Mail a single-use sign-in link (15 minutes); the same answer whether or not the address has an account',
        body: emailLinkBody,
        response: { 202: signInCodeAccepted, ...refusals },
      },
    },
    async (request, reply) => {
      offered('emailLink');
      return reply.code(202).send(await emailLink.request(request.body, request.ip));
    },
  );

  app.post(
    '/v2/auth/emailLink/verify',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with the token of an emailed link',
        body: emailLinkVerifyBody,
        response: { 200: signInResult, ...refusals, 401: errorBody, 410: errorBody },
      },
    },
    (request) => {
      offered('emailLink');
      return emailLink.verify(request.body);
    },
  );

  app.post(
    '/v2/auth/phoneCode',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'SMS a 6-digit sign-in code (5 minutes) to a verified number; the same answer whether or not it has an account',
        body: phoneCodeBody,
        response: { 202: signInCodeAccepted, ...refusals },
      },
    },
    async (request, reply) => {
      offered('phone');
      return reply.code(202).send(await phone.request(request.body, request.ip));
    },
  );

  app.post(
    '/v2/auth/phoneSignIn',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with a phone number and its SMS code (5 wrong codes end the code)',
        body: phoneSignInBody,
        response: { 200: signInResult, ...refusals, 401: errorBody },
      },
    },
    (request) => {
      offered('phone');
      return phone.signIn(request.body, request.ip);
    },
  );
};
