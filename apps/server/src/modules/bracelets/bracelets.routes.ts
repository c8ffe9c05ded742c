import type { FastifyPluginAsync } from 'fastify';
import {
  getDeviceSetting,
  getPairedStatus,
  importBracelets,
  linkBraceletToGateway,
  registerBracelet,
  unlinkBracelet,
  unlinkBraceletFromGateway,
  updateDeviceSetting,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { braceletImportService } from './bracelet-import.service.js';
import { braceletsService } from './bracelets.service.js';

/** Bracelets: register, pair (link to wearer and gateway), unlink, device setting. */
export const braceletsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const bracelets = braceletsService(ctx);

  serve(app, registerBracelet, (req) => bracelets.register(req.actor, req.body));
  const imports = braceletImportService(ctx);
  serve(app, importBracelets, (req) => imports.import(req.actor, req.params.clientId, req.body));
  serve(app, linkBraceletToGateway, (req) => bracelets.linkGateway(req.actor, req.body));
  serve(app, unlinkBraceletFromGateway, (req) =>
    bracelets.unlinkGateway(req.actor, req.body.wearableId),
  );
  serve(app, unlinkBracelet, (req) => bracelets.unlink(req.actor, req.body.wearableId));
  serve(app, getPairedStatus, (req) => bracelets.isPaired(req.actor, req.query.targetUid));
  serve(app, getDeviceSetting, (req) => bracelets.setting(req.actor, req.params.uid));
  serve(app, updateDeviceSetting, (req) =>
    bracelets.updateSetting(req.actor, req.params.uid, req.body),
  );
};
