import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertNoticeSettingsBody,
  alertNoticeSettingsResponse,
  errorBody,
  groupParams,
  noticeTestBody,
  noticeTestResponse,
  notificationsQuery,
  notificationsResponse,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import {
  getNoticeSettings,
  notificationLog,
  putNoticeSettings,
  sendNoticeTest,
} from './notice-settings.service.js';

/** A group's alert notice settings and the log of every notification attempt. */
export const notificationsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  base,
  { ctx },
) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Notifications'];

  app.get(
    '/v2/group/:groupId/alertNoticeSettings',
    {
      config: { permission: 'noticeSettings:read' },
      schema: { tags, params: groupParams, response: { 200: alertNoticeSettingsResponse } },
    },
    (request) => getNoticeSettings(ctx, request.actor, request.params.groupId),
  );

  app.put(
    '/v2/group/:groupId/alertNoticeSettings',
    {
      config: { permission: 'noticeSettings:update' },
      schema: {
        tags,
        params: groupParams,
        body: alertNoticeSettingsBody,
        response: { 200: alertNoticeSettingsResponse },
      },
    },
    (request) =>
      putNoticeSettings(ctx, request.actor, request.params.groupId, request.body.recipients),
  );

  app.post(
    '/v2/group/:groupId/alertNoticeSettings/test',
    {
      config: { permission: 'noticeSettings:update' },
      schema: {
        tags,
        summary:
          'Send one test SMS or call through the real provider; the outcome is in the notification log',
        params: groupParams,
        body: noticeTestBody,
        response: { 200: noticeTestResponse, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    (request) => sendNoticeTest(ctx, request.actor, request.params.groupId, request.body),
  );

  app.get(
    '/v2/notifications',
    {
      config: { permission: 'notification:read' },
      schema: { tags, querystring: notificationsQuery, response: { 200: notificationsResponse } },
    },
    (request) => notificationLog(ctx, request.actor, request.query),
  );
};
