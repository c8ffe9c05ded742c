import type { FastifyPluginAsync } from 'fastify';
import {
  listAlertSettings,
  previewAlertSettingsBulk,
  updateAlertSetting,
  updateAlertSettingsBulk,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { alertSettingsService } from './alert-settings.service.js';

/** Wearers' alert settings: list, one wearer, many wearers at once. */
export const alertSettingsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const settings = alertSettingsService(ctx);
  serve(app, listAlertSettings, (req) =>
    settings.listAlertSettings(
      req.actor,
      { organizationId: req.query.clientId, groupId: req.query.groupId },
      req.query.uid === undefined ? undefined : [req.query.uid],
    ),
  );

  serve(app, updateAlertSetting, (req) => {
    const { uid, ...patch } = req.body;
    return settings.patchAlertSettings(req.actor, req.params.clientId, [uid], patch, 'body');
  });

  serve(app, updateAlertSettingsBulk, (req) =>
    settings.patchAlertSettings(
      req.actor,
      req.params.clientId,
      req.body.uids,
      req.body.settings,
      'body.settings',
    ),
  );

  serve(app, previewAlertSettingsBulk, (req) =>
    settings.previewAlertSettings(req.actor, req.params.clientId, req.body.uids, req.body.settings),
  );
};
