import type { FastifyPluginAsync } from 'fastify';
import {
  disableTotp,
  enableTotp,
  enrolTotp,
  getTotpStatus,
  setupTotp,
  verifyTotp,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { authService } from './auth.service.js';
import { totpService } from './totp.service.js';

/** The caller's own TOTP second factor, and the second step of a sign-in. */
export const totpRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const totp = totpService(ctx, authService(ctx).startSession);

  serve(app, getTotpStatus, (req) => totp.status(req.actor));
  serve(app, setupTotp, (req) => totp.setup(req.actor));
  serve(app, enableTotp, (req) => totp.enable(req.actor, req.body.code));
  serve(app, disableTotp, (req) => totp.disable(req.actor, req.body.code));
  serve(app, enrolTotp, (req) => totp.enrol(req.body.challenge));
  serve(app, verifyTotp, (req) => totp.verify(req.body.challenge, req.body.code));
};
