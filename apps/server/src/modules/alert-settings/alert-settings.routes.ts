import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertSettingPatchBody,
  alertSettingsBulkBody,
  alertSettingsBulkPreviewResponse,
  alertSettingsListQuery,
  alertSettingsListResponse,
  alertSettingsUpdateResponse,
  clientParams,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import {
  listAlertSettings,
  patchAlertSettings,
  previewAlertSettings,
} from './alert-settings.service.js';

/** Wearers' alert settings: list, one wearer, many wearers at once. */
export const alertSettingsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  base,
  { ctx },
) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Alert settings'];

  app.get(
    '/v2/user/alertSettings/list',
    {
      config: { permission: 'alertSettings:read' },
      schema: {
        tags,
        querystring: alertSettingsListQuery,
        response: { 200: alertSettingsListResponse },
      },
    },
    (request) =>
      listAlertSettings(
        ctx,
        request.actor,
        {
          organizationId: request.query.clientId,
          groupId: request.query.groupId,
        },
        request.query.uid === undefined ? undefined : [request.query.uid],
      ),
  );

  app.patch(
    '/v2/client/:clientId/user/alertSetting',
    {
      config: { permission: 'alertSettings:update' },
      schema: {
        tags,
        params: clientParams,
        body: alertSettingPatchBody,
        response: { 200: alertSettingsUpdateResponse },
      },
    },
    (request) => {
      const { uid, ...patch } = request.body;
      return patchAlertSettings(ctx, request.actor, request.params.clientId, [uid], patch, 'body');
    },
  );

  app.patch(
    '/v2/client/:clientId/users/alertSettings/bulk',
    {
      config: { permission: 'alertSettings:update' },
      schema: {
        tags,
        params: clientParams,
        body: alertSettingsBulkBody,
        response: { 200: alertSettingsUpdateResponse },
      },
    },
    (request) =>
      patchAlertSettings(
        ctx,
        request.actor,
        request.params.clientId,
        request.body.uids,
        request.body.settings,
        'body.settings',
      ),
  );

  app.post(
    '/v2/client/:clientId/users/alertSettings/bulk/preview',
    {
      config: { permission: 'alertSettings:update' },
      schema: {
        tags,
        summary: 'What the same bulk change would do: how many wearers it changes (writes nothing)',
        params: clientParams,
        body: alertSettingsBulkBody,
        response: { 200: alertSettingsBulkPreviewResponse },
      },
    },
    (request) =>
      previewAlertSettings(
        ctx,
        request.actor,
        request.params.clientId,
        request.body.uids,
        request.body.settings,
      ),
  );
};
