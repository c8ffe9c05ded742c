import type { FastifyPluginAsync } from 'fastify';
import {
  deleteFamilyLine,
  familyLineCode,
  listFamilyNotices,
  updateFamilyNotice,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { familyNoticesService } from './family-notices.service.js';

/** A family member's SMS / mail choice per watched wearer (issue 34). */
export const familyNoticesRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const family = familyNoticesService(ctx);
  serve(app, listFamilyNotices, (req) => family.list(req.actor));
  serve(app, updateFamilyNotice, (req) =>
    family.update(req.actor, req.params.uid, req.body.channel),
  );
  serve(app, familyLineCode, (req) => family.lineCode(req.actor));
  serve(app, deleteFamilyLine, (req) => family.unlinkLine(req.actor));
};
