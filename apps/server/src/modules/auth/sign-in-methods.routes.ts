import type { FastifyPluginAsync } from 'fastify';
import {
  getSignInMethods,
  phoneSignIn,
  requestEmailLink,
  requestPhoneCode,
  type SignInMethod,
  verifyEmailLink,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { serve } from '../../http/serve.js';
import { authService } from './auth.service.js';
import { emailLinkService } from './email-link.service.js';
import { phoneCodeService } from './phone-code.service.js';

/** GET /v2/auth/methods; email-link and phone-code sign-in (docs/api.md). Every route is public. */
export const signInMethodsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
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

  serve(app, getSignInMethods, () => ({
    methods: ctx.config.signInMethods,
    oidc: ctx.config.oidc ? { displayName: ctx.config.oidc.displayName } : null,
  }));

  serve(app, requestEmailLink, (req) => {
    offered('emailLink');
    return emailLink.request(req.body, req.ip);
  });

  serve(app, verifyEmailLink, (req) => {
    offered('emailLink');
    return emailLink.verify(req.body);
  });

  serve(app, requestPhoneCode, (req) => {
    offered('phone');
    return phone.request(req.body, req.ip);
  });

  serve(app, phoneSignIn, (req) => {
    offered('phone');
    return phone.signIn(req.body, req.ip);
  });
};
