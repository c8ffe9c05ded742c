import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, id, signInSettings, signInSettingsPatch } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { signInSettingsService } from './sign-in-settings.service.js';

const tags = ['Identity'];
const security = [{ bearer: [] }];

/** GET/PATCH /v2/client/{id}/signInSettings: e.g. require TOTP for the organisation. */
export const signInSettingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const settings = signInSettingsService(ctx);

  app.get(
    '/v2/client/:id/signInSettings',
    {
      config: { permission: 'organization:read' },
      schema: {
        tags,
        summary: 'How the organisation’s people sign in (TOTP required or not)',
        security,
        params: z.object({ id }),
        response: { 200: signInSettings, 401: errorBody, 404: errorBody },
      },
    },
    (request) => settings.read(request.actor, request.params.id),
  );

  app.patch(
    '/v2/client/:id/signInSettings',
    {
      config: { permission: 'organization:update' },
      schema: {
        tags,
        summary: 'Require (or stop requiring) a TOTP second factor for the organisation (owner)',
        security,
        params: z.object({ id }),
        body: signInSettingsPatch,
        response: {
          200: signInSettings,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    (request) => settings.update(request.actor, request.params.id, request.body),
  );
};
