import type { FastifyPluginAsync } from 'fastify';
import {
  getNoticeSettings,
  listNotifications,
  putNoticeSettings,
  sendNoticeTest,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { noticeSettingsService } from './notice-settings.service.js';

/** A group's alert notice settings and the log of every notification attempt. */
export const notificationsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const notices = noticeSettingsService(ctx);
  serve(app, getNoticeSettings, (req) => notices.getNoticeSettings(req.actor, req.params.groupId));
  serve(app, putNoticeSettings, (req) =>
    notices.putNoticeSettings(
      req.actor,
      req.params.groupId,
      req.body.recipients,
      req.body.publicHolidaysAsWeekdays,
    ),
  );
  serve(app, sendNoticeTest, (req) =>
    notices.sendNoticeTest(req.actor, req.params.groupId, req.body),
  );
  serve(app, listNotifications, (req) => notices.notificationLog(req.actor, req.query));
};
