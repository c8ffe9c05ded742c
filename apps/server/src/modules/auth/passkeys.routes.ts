import type { FastifyPluginAsync } from 'fastify';
import {
  enrolPasskey,
  listPasskeys,
  passkeySignIn,
  registerPasskey,
  removePasskey,
  startPasskeyEnrolment,
  startPasskeyRegistration,
  startPasskeySignIn,
  startPasskeyStep,
  verifyPasskeyStep,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { authService } from './auth.service.js';
import { passkeysService } from './passkeys.service.js';

/** The caller's own passkeys, signing in with one, and a sign-in's second step answered with one. */
export const passkeysRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const passkeys = passkeysService(ctx, authService(ctx).startSession);

  serve(app, listPasskeys, (req) => passkeys.list(req.actor));
  serve(app, startPasskeyRegistration, (req) => passkeys.startRegistration(req.actor));
  serve(app, registerPasskey, (req) =>
    passkeys.register(req.actor, req.body.name, req.body.response),
  );
  serve(app, removePasskey, (req) => passkeys.remove(req.actor, req.params.passkeyId));
  serve(app, startPasskeySignIn, (req) => passkeys.startSignIn(req.ip));
  serve(app, passkeySignIn, (req) => passkeys.signIn(req.body.response, req.ip));
  serve(app, startPasskeyStep, (req) => passkeys.startStep(req.body.challenge));
  serve(app, verifyPasskeyStep, (req) =>
    passkeys.verifyStep(req.body.challenge, req.body.response),
  );
  serve(app, startPasskeyEnrolment, (req) => passkeys.startEnrolment(req.body.challenge));
  serve(app, enrolPasskey, (req) =>
    passkeys.enrol(req.body.challenge, req.body.name, req.body.response),
  );
};
