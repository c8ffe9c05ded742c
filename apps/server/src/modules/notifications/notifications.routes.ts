import type { FastifyPluginAsync } from 'fastify';
import {
  addOnCallOverride,
  getNoticeSettings,
  getOnCall,
  putOnCallRota,
  removeOnCallOverride,
  listNotifications,
  putNoticeSettings,
  sendNoticeTest,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { noticeSettingsService } from './notice-settings.service.js';
import { onCallService } from './on-call.service.js';

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

  const onCall = onCallService(ctx);
  serve(app, getOnCall, (req) => onCall.get(req.actor, req.params.groupId));
  serve(app, putOnCallRota, (req) => onCall.putRota(req.actor, req.params.groupId, req.body.rota));
  serve(app, addOnCallOverride, (req) =>
    onCall.addOverride(req.actor, req.params.groupId, req.body),
  );
  serve(app, removeOnCallOverride, (req) =>
    onCall.removeOverride(req.actor, req.params.groupId, req.params.overrideId),
  );
};
