import type { FastifyPluginAsync } from 'fastify';
import { getSignInSettings, updateSignInSettings } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { signInSettingsService } from './sign-in-settings.service.js';

/** GET/PATCH /v2/client/{id}/signInSettings: e.g. require TOTP for the organisation. */
export const signInSettingsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const settings = signInSettingsService(ctx);
  serve(app, getSignInSettings, (request) => settings.read(request.actor, request.params.id));
  serve(app, updateSignInSettings, (request) =>
    settings.update(request.actor, request.params.id, request.body),
  );
};
